// Development only, loaded lazily (DevPanel imports it behind import.meta.env.DEV, so a production build has none
// of it): the Debug view (addresses, live-update channels, recent problems, the connection debugger) and the
// manual WebSocket tester. Its two actors live as long as the developer panel is open.
import { useActorRef, useSelector } from '@xstate/react';
import { useState } from 'react';
import { createDevToolsLogic } from '../../../composeDev';
import type { AppActorRef } from '../../../machines/app.machine';
import { selectLiveUpdates, selectSession } from '../../../machines/app.selectors';
import { selectToken } from '../../../machines/session.selectors';
import { useUiConfig } from '../../AppContext';
import { ConfigEntries } from '../../common/ConfigEntries';
import { ConnectionDebuggerView } from './ConnectionDebuggerView';
import { WsTesterView } from './WsTesterView';

export default function DevTools({ app, panel }: { app: AppActorRef; panel: 'debug' | 'tester' }) {
  const config = useUiConfig();
  const live = useSelector(app, selectLiveUpdates);
  const channels = useSelector(live, (s) => s?.context.channels ?? null);
  const problems = useSelector(live, (s) => s?.context.errors ?? []);
  // Built once: the services read the token when each probe runs.
  const [logic] = useState(() =>
    createDevToolsLogic({
      wsBase: config.socketUrl,
      getToken: () => {
        const session = selectSession(app.getSnapshot());
        return session ? selectToken(session.getSnapshot()) : null;
      },
    }),
  );
  const debuggerRef = useActorRef(logic.connectionDebugger);
  const testerRef = useActorRef(logic.wsTester);

  if (panel === 'tester') {
    return (
      <section className="dev-panel" aria-label="WebSocket tester">
        <h2>WebSocket tester</h2>
        <WsTesterView tester={testerRef} />
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
      <ConnectionDebuggerView debuggerRef={debuggerRef} />
    </section>
  );
}
