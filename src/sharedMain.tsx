// The composition root of the public shared page (/s/{token}): no session, no root app actor; one sharedPage actor
// with its real services (the public read and the exporter). main.tsx chooses it from the address at start.
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { createActor } from 'xstate';
import { downloadBlob } from './services/download';
import { createHttp } from './services/http';
import { createSharedPageLogic } from './services/shareActors';
import { createSharesApi } from './services/sharesApi';
import { SharedPage } from './ui/share/SharedPage';

/** `turn`: the moment the link's #t= names (the replay opens there), or null. */
export function mountSharedPage(token: string, turn: number | null, root: HTMLElement) {
  // A shared page never sends the reader's own session, if they have one: what it shows is the same for everyone.
  const http = createHttp({ getToken: () => null });
  const actor = createActor(createSharedPageLogic(createSharesApi(http), { saveFile: downloadBlob }), {
    input: { token, turn },
  });
  actor.start();
  createRoot(root).render(
    <StrictMode>
      <SharedPage page={actor} />
    </StrictMode>,
  );
}
