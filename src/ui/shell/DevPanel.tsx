// Development only: the Debug view (addresses, live-update channels, the last connection problems) and the
// place the WebSocket tester will live.
import { useSelector } from '@xstate/react';
import type { AppActorRef } from '../../machines/app.machine';
import { selectDevPanel, selectLiveUpdates } from '../../machines/app.selectors';
import { useUiConfig } from '../AppContext';
import { ConfigEntries } from '../common/ConfigEntries';

export function DevPanel({ app }: { app: AppActorRef }) {
  const config = useUiConfig();
  const panel = useSelector(app, selectDevPanel);
  const live = useSelector(app, selectLiveUpdates);
  const channels = useSelector(live, (s) => s?.context.channels ?? null);
  const problems = useSelector(live, (s) => s?.context.errors ?? []);
  if (!config.isDev || !panel) return null;
  if (panel === 'tester') {
    return (
      <section className="dev-panel" aria-label="WebSocket tester">
        <h2>WebSocket tester</h2>
        <p className="muted">The connection debugger and manual tester arrive with the discussion panels.</p>
      </section>
    );
  }
  return (
    <section className="dev-panel" aria-label="Debug">
      <h2>Debug</h2>
      <dl className="debug-list">
        <ConfigEntries config={config} />
        <dt>/ws/updates</dt>
        <dd>{channels?.updates ?? '—'}</dd>
        <dt>/ws/system</dt>
        <dd>{channels?.system ?? '—'}</dd>
      </dl>
      <h3>Connection problems (last 10)</h3>
      {problems.length === 0 ? (
        <p className="muted">None.</p>
      ) : (
        <ol className="problem-list">
          {problems.map((p, i) => (
            <li key={i}>
              <code>{p.channel}</code> {p.message}
            </li>
          ))}
        </ol>
      )}
    </section>
  );
}
