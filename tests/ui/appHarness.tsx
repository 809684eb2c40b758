// Renders the whole app the way main.tsx does — composeApp with the real services — but over a fake fetch
// (answers chosen per path), a fake WebSocket and in-memory storage.
import { render } from '@testing-library/react';
import { VirtuosoMockContext } from 'react-virtuoso';
import { createActor } from 'xstate';
import { composeApp } from '../../src/compose';
import { createTokenStorage } from '../../src/services/tokenStorage';
import { App } from '../../src/ui/App';
import { AppProvider } from '../../src/ui/AppContext';
import type { UiConfig } from '../../src/ui/config';
import { fakeSockets } from '../support/fakeWebSocket';
import { installFlowStubs } from './canvasStubs';

// The main screen draws the agent canvas (React Flow), which needs browser pieces jsdom lacks.
installFlowStubs();

export type Route = (init: RequestInit) => Response | Promise<Response>;

export const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });

export const healthy = {
  status: 'healthy',
  version: '2.1.0',
  components: {
    database: { status: 'ok' },
    llm: { status: 'ok' },
    speech: { status: 'disabled' },
    transcription: { status: 'disabled' },
  },
};

class MemoryStore {
  map = new Map<string, string>();
  getItem = (k: string) => this.map.get(k) ?? null;
  setItem = (k: string, v: string) => void this.map.set(k, v);
  removeItem = (k: string) => void this.map.delete(k);
}

export const testConfig = (over: Partial<UiConfig> = {}): UiConfig => ({
  isDev: false,
  environment: 'test',
  apiUrl: 'http://localhost:8000',
  socketUrl: 'ws://localhost:8000',
  host: 'localhost:8000',
  demoAccounts: [
    { label: 'Demo researcher', email: 'demo@agora.local', password: 'demo1234' },
    { label: 'Demo reviewer', email: 'reviewer@agora.local', password: 'demo1234' },
  ],
  ...over,
});

export function renderApp(opts: { routes: Record<string, Route>; token?: string; config?: Partial<UiConfig> }) {
  const calls: string[] = [];
  const fetch = (async (url: RequestInfo | URL, init: RequestInit = {}) => {
    const key = `${init.method ?? 'GET'} ${String(url)}`;
    calls.push(key);
    const route = opts.routes[key];
    if (!route) return json(404, { detail: `no fake route for ${key}` });
    return route(init);
  }) as typeof globalThis.fetch;
  const stores = [new MemoryStore(), new MemoryStore()];
  const storage = createTokenStorage(stores);
  if (opts.token) storage.save(opts.token, { email: 'ada@example.com' });
  const sockets = fakeSockets();
  const composed = composeApp({ wsBase: () => 'ws://localhost:8000', fetch, WebSocket: sockets.Ctor, storage });
  const actor = createActor(composed.logic, { systemId: 'app' });
  composed.bind(actor);
  actor.start();
  // jsdom lays nothing out, so virtualized lists (react-virtuoso) are given a viewport and a row height.
  const view = render(
    <VirtuosoMockContext.Provider value={{ viewportHeight: 2_000, itemHeight: 40 }}>
      <AppProvider actor={actor} config={testConfig(opts.config)}>
        <App />
      </AppProvider>
    </VirtuosoMockContext.Provider>,
  );
  return { ...view, actor, calls, storage, sockets };
}

/**
 * Loads the app's lazy chunks (the shell, the signed-in actors, the discussion panel) once before a file's tests,
 * so the first test does not spend its find timeouts on module transforms.
 */
export async function warmLazyChunks() {
  await Promise.all([
    import('../../src/ui/shell/Shell'),
    import('../../src/composeLive'),
    import('../../src/ui/discussion/DiscussionPanel'),
  ]);
}
