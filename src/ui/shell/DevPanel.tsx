// Development only: the Debug view (addresses, live-update channels, the last connection problems, the connection
// debugger) and the manual WebSocket tester. Their code is a lazy chunk imported only when import.meta.env.DEV, so
// a production build drops it (and its text) entirely.
import { useSelector } from '@xstate/react';
import { lazy, Suspense } from 'react';
import type { AppActorRef } from '../../machines/app.machine';
import { selectDevPanel } from '../../machines/app.selectors';
import { useUiConfig } from '../AppContext';

const DevTools = import.meta.env.DEV ? lazy(() => import('./dev/DevTools')) : null;

export function DevPanel({ app }: { app: AppActorRef }) {
  const config = useUiConfig();
  const panel = useSelector(app, selectDevPanel);
  if (!config.isDev || !panel || !DevTools) return null;
  return (
    <Suspense fallback={<p className="dev-panel muted">Loading developer tools…</p>}>
      <DevTools app={app} panel={panel} />
    </Suspense>
  );
}
