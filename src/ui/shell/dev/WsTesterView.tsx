// The manual WebSocket tester (development only): choose a path, connect or disconnect, type a frame, watch the
// frames arrive (validated where a schema knows the type). It only sends and selects; the draft is local state.
import { useSelector } from '@xstate/react';
import { useState } from 'react';
import { TESTER_PATHS, type TesterLine, type WsTesterActorRef } from '../../../machines/wsTester.machine';

const lineLabel = (l: TesterLine) =>
  l.dir === 'out'
    ? 'sent'
    : l.dir === 'note'
      ? l.kind
      : l.kind === 'valid'
        ? `${l.type} ✓ (${l.schema})`
        : l.kind === 'unknown'
          ? `${l.type} (unknown type)`
          : `${l.type} (malformed)`;

export function WsTesterView({ tester }: { tester: WsTesterActorRef }) {
  const [draft, setDraft] = useState('{"type": "ping"}');
  const path = useSelector(tester, (s) => s.context.path);
  const lines = useSelector(tester, (s) => s.context.lines);
  const connected = useSelector(tester, (s) => s.hasTag('connected'));
  const busy = useSelector(tester, (s) => s.hasTag('busy'));
  const disconnected = useSelector(tester, (s) => s.matches('disconnected'));
  const status = connected ? 'connected' : busy ? 'connecting' : 'disconnected';
  return (
    <div className="dev-tester">
      <div className="dev-actions">
        <label>
          Path{' '}
          <select
            value={path}
            disabled={!disconnected}
            onChange={(e) => tester.send({ type: 'tester.path.select', path: e.target.value })}
          >
            {TESTER_PATHS.map((p) => (
              <option key={p} value={p}>
                {p}
              </option>
            ))}
          </select>
        </label>
        {disconnected ? (
          <button
            type="button"
            className="button button--small button--primary"
            onClick={() => tester.send({ type: 'tester.connect' })}
          >
            Connect
          </button>
        ) : (
          <button
            type="button"
            className="button button--small"
            onClick={() => tester.send({ type: 'tester.disconnect' })}
          >
            Disconnect
          </button>
        )}
        <span role="status">Status: {status}</span>
      </div>
      <form
        className="dev-actions"
        onSubmit={(e) => {
          e.preventDefault();
          tester.send({ type: 'tester.send', text: draft });
        }}
      >
        <label className="dev-grow">
          Frame (JSON)
          <textarea value={draft} rows={3} onChange={(e) => setDraft(e.target.value)} spellCheck={false} />
        </label>
        <button type="submit" className="button button--small" disabled={!connected}>
          Send
        </button>
        <button type="button" className="button button--small" onClick={() => tester.send({ type: 'tester.clear' })}>
          Clear
        </button>
      </form>
      <ol className="dev-frames" aria-label="Frames" aria-live="polite">
        {lines.map((l, i) => (
          <li key={i} className={`dev-frame dev-frame--${l.dir} dev-frame--${l.kind}`}>
            <span className="dev-frame__label">
              {l.dir === 'in' ? '←' : l.dir === 'out' ? '→' : '•'} {lineLabel(l)}
            </span>{' '}
            <code>{l.text}</code>
            {l.dir === 'in' && l.kind === 'malformed' && l.error && (
              <span className="dev-frame__error"> {l.error}</span>
            )}
          </li>
        ))}
      </ol>
    </div>
  );
}
