// The WebSocket connection debugger (development only): Run tests, each test's outcome as it comes, the last 10
// connection errors, and Copy report with its 2 s 'Copied' confirmation. It only sends and selects.
import { useSelector } from '@xstate/react';
import type { ConnectionDebuggerActorRef } from '../../../machines/connectionDebugger.machine';
import { DEBUGGER_TESTS, testName } from '../../../model/connectionDebugger';

export function ConnectionDebuggerView({ debuggerRef }: { debuggerRef: ConnectionDebuggerActorRef }) {
  const running = useSelector(debuggerRef, (s) => s.hasTag('running'));
  const results = useSelector(debuggerRef, (s) => s.context.results);
  const index = useSelector(debuggerRef, (s) => s.context.index);
  const errors = useSelector(debuggerRef, (s) => s.context.errors);
  const copied = useSelector(debuggerRef, (s) => s.hasTag('copied'));
  const copyError = useSelector(debuggerRef, (s) => s.context.copyError);
  const passed = results.filter((r) => r.ok).length;
  return (
    <div className="dev-debugger" aria-label="Connection debugger" role="region">
      <h3>Connection debugger</h3>
      <div className="dev-actions">
        {running ? (
          <button
            type="button"
            className="button button--small"
            onClick={() => debuggerRef.send({ type: 'debugger.stop' })}
          >
            Stop
          </button>
        ) : (
          <button
            type="button"
            className="button button--small button--primary"
            onClick={() => debuggerRef.send({ type: 'debugger.run' })}
          >
            Run tests
          </button>
        )}
        <button
          type="button"
          className="button button--small"
          onClick={() => debuggerRef.send({ type: 'debugger.copy' })}
          disabled={results.length === 0 && errors.length === 0}
        >
          {copied ? 'Copied' : 'Copy report'}
        </button>
        <span role="status" className="muted">
          {running
            ? `Running ${testName(DEBUGGER_TESTS[index])} (${index + 1}/${DEBUGGER_TESTS.length})…`
            : results.length
              ? `${passed}/${results.length} passed`
              : ''}
          {copied ? ' Report copied.' : ''}
        </span>
      </div>
      {copyError && <p role="alert">Could not copy: {copyError}</p>}
      {results.length > 0 && (
        <table className="dev-table">
          <thead>
            <tr>
              <th scope="col">Test</th>
              <th scope="col">Result</th>
              <th scope="col">Code / status</th>
              <th scope="col">Time</th>
              <th scope="col">What the server answered</th>
            </tr>
          </thead>
          <tbody>
            {results.map((r, i) => (
              <tr key={i}>
                <td>
                  <code>{r.name}</code>
                </td>
                <td className={r.ok ? 'dev-pass' : 'dev-fail'}>{r.ok ? 'Pass' : 'Fail'}</td>
                <td>
                  {r.code !== undefined ? `${r.code} — ${r.explanation}` : r.status !== undefined ? r.status : '—'}
                </td>
                <td>{r.ms} ms</td>
                <td>{r.detail}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <h4>Connection errors (last 10)</h4>
      {errors.length === 0 ? (
        <p className="muted">None.</p>
      ) : (
        <ol className="problem-list">
          {errors.map((e, i) => (
            <li key={i}>
              <code>{e.test}</code> {e.message}
            </li>
          ))}
        </ol>
      )}
    </div>
  );
}
