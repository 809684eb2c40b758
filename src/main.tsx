// The composition root: builds the root actor with the real services, attaches the inspector in development
// (loaded on demand, so it is not in the production bundle), and renders the app.
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { createActor, type InspectionEvent, type Observer } from 'xstate';
import { composeApp } from './compose';
import { App } from './ui/App';
import { AppProvider } from './ui/AppContext';
import { readUiConfig, socketBase } from './services/uiConfig';
import { parseAddress, turnInHash } from './model/address';
import './ui/styles.css';

async function devInspector(): Promise<Observer<InspectionEvent> | undefined> {
  if (!import.meta.env.DEV) return undefined;
  const { createBrowserInspector } = await import('@statelyai/inspect');
  // The inspector opens its own window; do that only when asked (?inspect), or later from the console.
  const inspector = createBrowserInspector({ autoStart: new URLSearchParams(window.location.search).has('inspect') });
  (window as unknown as { agoraInspector: typeof inspector }).agoraInspector = inspector;
  return inspector.inspect;
}

async function main() {
  // A share link's public page (/s/{token}) needs no account: it has its own small root, no session and no sign-in.
  const route = parseAddress(window.location);
  if (route.kind === 'share') {
    const { mountSharedPage } = await import('./sharedMain');
    return mountSharedPage(route.token, turnInHash(window.location.hash), document.getElementById('root')!);
  }
  const config = readUiConfig();
  const { logic, bind } = composeApp({ wsBase: () => socketBase(window.location), address: window });
  const actor = createActor(logic, { systemId: 'app', inspect: await devInspector() });
  bind(actor);
  actor.start();
  createRoot(document.getElementById('root')!).render(
    <StrictMode>
      <AppProvider actor={actor} config={config}>
        <App />
      </AppProvider>
    </StrictMode>,
  );
}

void main();
