// The settings of a new evaluation: the task set, the panel's agents (a model may sit in several seats), the
// methods, rounds, samples, equal tokens and a token budget. Every change is an event to the evaluation chart.
import { useSelector } from '@xstate/react';
import { cannotAnswer, type EvalForm, type EvaluationActorRef } from '../../machines/evaluation.machine';
import {
  selectCanStart,
  selectEvalFileCheck,
  selectEvalForm,
  selectEvalModels,
  selectIsCheckingFile,
  selectIsStarting,
  selectStartBlocker,
} from '../../machines/evaluation.selectors';
import { EVAL_LIMITS, EVAL_METHODS, EVAL_METHOD_LABELS, PANEL_METHODS } from '../../schemas/evalConstants';

const HINT: Record<(typeof EVAL_METHODS)[number], string> = {
  one_answer: 'the first agent’s model, one short answer',
  chain_of_thought: 'the first agent’s model, reasoning step by step',
  self_consistency: 'k chain-of-thought samples, majority vote',
  round_table: 'every agent answers, reads the others, R rounds, vote',
  council: 'answers, anonymous review, the first agent chairs',
  debate: 'agents argue R rounds, the first agent’s model judges',
};

export function EvalFormView({ actor }: { actor: EvaluationActorRef }) {
  const form = useSelector(actor, selectEvalForm);
  const models = useSelector(actor, selectEvalModels);
  const check = useSelector(actor, selectEvalFileCheck);
  const checking = useSelector(actor, selectIsCheckingFile);
  const starting = useSelector(actor, selectIsStarting);
  const canStart = useSelector(actor, selectCanStart);
  const blocker = useSelector(actor, selectStartBlocker);
  const change = (patch: Partial<EvalForm>) => actor.send({ type: 'evaluation.form.change', patch });
  const int = (v: string, lo: number, hi: number) => Math.min(hi, Math.max(lo, Math.round(Number(v) || lo)));
  const toggle = (m: EvalForm['methods'][number]) =>
    change({
      methods: form.methods.includes(m)
        ? form.methods.filter((x) => x !== m)
        : EVAL_METHODS.filter((x) => x === m || form.methods.includes(x)),
    });
  const panelChosen = form.methods.some((m) => PANEL_METHODS.includes(m));
  const toggleTools = (m: EvalForm['methods'][number]) =>
    change({ withTools: form.withTools.includes(m) ? form.withTools.filter((x) => x !== m) : [...form.withTools, m] });

  return (
    <form
      className="eval-form"
      aria-label="New evaluation"
      onSubmit={(e) => {
        e.preventDefault();
        actor.send({ type: 'evaluation.start' });
      }}
    >
      <fieldset>
        <legend>Task set</legend>
        <div className="eval-choices">
          {(['arithmetic', 'reasoning', 'file'] as const).map((k) => (
            <label key={k}>
              <input
                type="radio"
                name="eval-task"
                checked={form.taskKind === k}
                onChange={() => change({ taskKind: k })}
              />
              {k === 'arithmetic'
                ? 'Arithmetic (generated)'
                : k === 'reasoning'
                  ? 'Reasoning (built in)'
                  : 'Your file (JSONL)'}
            </label>
          ))}
        </div>
        {form.taskKind !== 'file' && (
          <div className="eval-row">
            {form.taskKind === 'arithmetic' && (
              <label>
                Seed
                <input
                  type="number"
                  min={0}
                  value={form.seed}
                  onChange={(e) => change({ seed: int(e.target.value, 0, 2 ** 31 - 1) })}
                />
              </label>
            )}
            <label>
              Questions
              <input
                type="number"
                min={1}
                max={form.taskKind === 'reasoning' ? 24 : 10_000}
                value={form.size}
                onChange={(e) => change({ size: int(e.target.value, 1, 10_000) })}
              />
            </label>
          </div>
        )}
        {form.taskKind === 'file' && (
          <div className="eval-file">
            <label>
              JSONL file, one <code>{'{"question", "answer", "choices"?}'}</code> per line
              <input
                type="file"
                accept=".jsonl,.json,.txt,application/jsonl"
                onChange={(e) => {
                  const file = e.target.files?.[0];
                  if (file) actor.send({ type: 'evaluation.file.chosen', name: file.name, file });
                }}
              />
            </label>
            {checking && <p className="eval-note">Checking {form.fileName}…</p>}
            {check?.ok && (
              <p className="eval-ok">
                {form.fileName}: {check.count} questions, all readable.
              </p>
            )}
            {check && !check.ok && (
              <div className="eval-alert" role="alert">
                <strong>{form.fileName} cannot be used:</strong>
                <ul>
                  {check.errors.map((e) => (
                    <li key={`${e.line}-${e.message}`}>{e.line ? `Line ${e.line}: ${e.message}` : e.message}</li>
                  ))}
                </ul>
              </div>
            )}
          </div>
        )}
      </fieldset>

      <fieldset>
        <legend>Agents</legend>
        <p className="eval-note">
          The panel’s seats; a model may take several. The first one also answers alone, judges and chairs.
        </p>
        {models.length === 0 && <p className="eval-note">No model is listed yet: add one in Models.</p>}
        <ol className="eval-agents" aria-label="Panel seats">
          {form.models.map((m, i) => (
            <li key={i}>
              {/* Named by aria-label alone: a wrapping <label> would lend it every option's words. */}
              <select
                value={m}
                aria-label={`Agent ${i + 1} model`}
                onChange={(e) => change({ models: form.models.map((x, j) => (j === i ? e.target.value : x)) })}
              >
                {!models.some((o) => o.value === m) && <option value={m}>{m}</option>}
                {models.map((o) => (
                  <option key={o.value} value={o.value} disabled={cannotAnswer(o)}>
                    {cannotAnswer(o) ? `${o.label} (cannot answer questions)` : o.label}
                  </option>
                ))}
              </select>
              <button
                type="button"
                className="link-button"
                aria-label={`Remove agent ${i + 1}`}
                disabled={form.models.length <= 1}
                onClick={() => change({ models: form.models.filter((_, j) => j !== i) })}
              >
                Remove
              </button>
            </li>
          ))}
        </ol>
        <button
          type="button"
          className="button button--small"
          disabled={form.models.length >= EVAL_LIMITS.models || !models.some((o) => !cannotAnswer(o))}
          onClick={() =>
            change({
              models: [...form.models, form.models.at(-1) ?? models.find((o) => !cannotAnswer(o))?.value ?? ''],
            })
          }
        >
          Add agent
        </button>
      </fieldset>

      <fieldset>
        <legend>Methods</legend>
        <div className="eval-methods">
          {EVAL_METHODS.map((m) => (
            <div key={m} className="eval-method">
              <label title={HINT[m]}>
                <input type="checkbox" checked={form.methods.includes(m)} onChange={() => toggle(m)} />
                <span>
                  {EVAL_METHOD_LABELS[m]} <span className="eval-hint">{HINT[m]}</span>
                </span>
              </label>
              {/* Asked a second time with the calculator, shown beside the plain result (docs/evaluation.md). */}
              <label className="eval-method__tools">
                <input
                  type="checkbox"
                  disabled={!form.methods.includes(m)}
                  checked={form.methods.includes(m) && form.withTools.includes(m)}
                  onChange={() => toggleTools(m)}
                  aria-label={`With tools (the calculator): ${EVAL_METHOD_LABELS[m]}`}
                />
                <span>with tools</span>
              </label>
            </div>
          ))}
        </div>
        <p className="eval-hint">
          With tools: the method is asked again with the calculator, and both results are shown side by side.
        </p>
        <div className="eval-row">
          <label>
            Rounds
            <input
              type="number"
              min={1}
              max={EVAL_LIMITS.rounds}
              value={form.rounds}
              onChange={(e) => change({ rounds: int(e.target.value, 1, EVAL_LIMITS.rounds) })}
            />
          </label>
          <label>
            Samples (k)
            <input
              type="number"
              min={1}
              max={EVAL_LIMITS.samples}
              value={form.samples}
              disabled={form.equalTokens && panelChosen}
              onChange={(e) => change({ samples: int(e.target.value, 1, EVAL_LIMITS.samples) })}
            />
          </label>
          <label>
            Token budget
            <input
              type="number"
              min={0}
              placeholder="none"
              value={form.budget ?? ''}
              onChange={(e) => change({ budget: e.target.value ? int(e.target.value, 1, 1e12) : null })}
            />
          </label>
        </div>
        <label className="eval-check">
          <input
            type="checkbox"
            checked={form.equalTokens}
            onChange={(e) => change({ equalTokens: e.target.checked })}
          />
          Equal tokens: self-consistency gets the k that spends what the panel spent
        </label>
      </fieldset>
      <div className="eval-start">
        {/* Above Start, so the reason it is off is seen with it. */}
        {blocker && (
          <span className="eval-note" id="eval-start-blocker" role="status">
            {blocker}
          </span>
        )}
        <button
          type="submit"
          className="button button--primary"
          disabled={!canStart || starting}
          aria-describedby={blocker ? 'eval-start-blocker' : undefined}
        >
          {starting ? 'Starting…' : 'Start evaluation'}
        </button>
      </div>
    </form>
  );
}
