// A turn's tool calls, each a quiet row under the turn's text (docs/tools.md): folded to one line (the tool, its
// arguments, the start of its result, its time) behind a disclosure button; opened, the whole arguments, the
// result excerpt and the error. A call that waits for the person shows Run and Refuse in its row; the panel's chart
// sends the answer (the view only calls `onAnswer`). History and replay draw the rows without the buttons.
import { memo, useId, useState } from 'react';
import { toolCallState, type ToolCallState } from '../../../model/feed';
import type { ToolCallEntry } from '../../../model/feed/types';
import { TOOL_STATE_WORDS, toolCallSummary } from '../../../model/toolCallText';

/** The most of a result the opened row shows (the JSON export keeps all the server sent). */
const OPEN_RESULT_MAX = 2_000;

export type ToolAnswer = (id: string, approve: boolean) => void;

function ToolCallRow({ call, onAnswer }: { call: ToolCallEntry; onAnswer?: ToolAnswer }) {
  const [open, setOpen] = useState(false);
  const bodyId = useId();
  const state: ToolCallState = toolCallState(call);
  const r = call.result;
  return (
    <li className={`tool-call tool-call--${state}`}>
      <div className="tool-call__head">
        <button
          type="button"
          className="tool-call__toggle"
          aria-expanded={open}
          aria-controls={bodyId}
          onClick={() => setOpen((o) => !o)}
        >
          <span className="tool-call__chevron" aria-hidden="true">
            ▸
          </span>
          <span className="tool-call__line">{toolCallSummary(call)}</span>
        </button>
        <span className="tool-call__state">{TOOL_STATE_WORDS[state]}</span>
      </div>
      {state === 'waiting' && onAnswer && (
        <div className="tool-call__ask" role="group" aria-label={`Run ${call.tool}?`}>
          <span>Run {call.tool} with these arguments?</span>
          <button
            type="button"
            className="button button--small button--primary"
            onClick={() => onAnswer(call.id, true)}
          >
            Run
          </button>
          <button type="button" className="button button--small" onClick={() => onAnswer(call.id, false)}>
            Refuse
          </button>
        </div>
      )}
      <div id={bodyId} className="tool-call__body" hidden={!open}>
        {open && (
          <dl>
            <dt>Tool</dt>
            <dd>
              {call.tool} <span className="muted">({call.server === 'builtin' ? 'built-in' : call.server})</span>
            </dd>
            <dt>Arguments</dt>
            <dd>
              <pre>{JSON.stringify(call.arguments, null, 2)}</pre>
            </dd>
            {r && (
              <>
                <dt>Result</dt>
                <dd>
                  {r.content ? (
                    <pre>
                      {r.content.length > OPEN_RESULT_MAX ? `${r.content.slice(0, OPEN_RESULT_MAX)}…` : r.content}
                    </pre>
                  ) : (
                    <span className="muted">(nothing)</span>
                  )}
                  {r.truncated && <p className="tool-call__note">The result was longer than the cap and was cut.</p>}
                </dd>
                <dt>Time</dt>
                <dd>{r.ms} ms</dd>
                {r.error && (
                  <>
                    <dt>Error</dt>
                    <dd className="tool-call__error">{r.error}</dd>
                  </>
                )}
              </>
            )}
          </dl>
        )}
      </div>
    </li>
  );
}

export const ToolCallRows = memo(function ToolCallRows({
  calls,
  onAnswer,
}: {
  calls: readonly ToolCallEntry[];
  onAnswer?: ToolAnswer;
}) {
  if (calls.length === 0) return null;
  return (
    <ul className="tool-calls" aria-label="Tool calls">
      {calls.map((c) => (
        <ToolCallRow key={c.id} call={c} onAnswer={onAnswer} />
      ))}
    </ul>
  );
});
