// The evaluation's names and bounds without zod, so the charts (in the sign-in bundle) can read them.

export const EVAL_METHODS = [
  'one_answer',
  'chain_of_thought',
  'self_consistency',
  'round_table',
  'council',
  'debate',
] as const;
export type EvalMethod = (typeof EVAL_METHODS)[number];

export const EVAL_METHOD_LABELS: Record<EvalMethod, string> = {
  one_answer: 'One answer',
  chain_of_thought: 'Chain-of-thought',
  self_consistency: 'Self-consistency',
  round_table: 'Round table',
  council: 'Council',
  debate: 'Debate with a judge',
};
/**
 * A method asked with the calculator (docs/evaluation.md#with-tools) is a second variant of it, stored and
 * shown apart: 'one_answer+tools'.
 */
export type EvalVariant = EvalMethod | `${EvalMethod}+tools`;
export const withToolsKey = (m: EvalMethod, tools: boolean): EvalVariant => (tools ? `${m}+tools` : m);
export function variantParts(key: string): { method: EvalMethod; tools: boolean } | null {
  const tools = key.endsWith('+tools');
  const method = (tools ? key.slice(0, -'+tools'.length) : key) as EvalMethod;
  return (EVAL_METHODS as readonly string[]).includes(method) ? { method, tools } : null;
}

/** A result's key and name: the method, or the method with the calculator ('Chain-of-thought + calculator'). */
export const resultKey = (r: { method: EvalMethod; with_tools?: boolean }) => withToolsKey(r.method, !!r.with_tools);
export const resultLabel = (r: { method: EvalMethod; with_tools?: boolean }) =>
  `${EVAL_METHOD_LABELS[r.method]}${r.with_tools ? ' + calculator' : ''}`;

/** Methods where several agents talk: they have a first vote and a final answer. */
export const PANEL_METHODS: readonly EvalMethod[] = ['round_table', 'council', 'debate'];

/** Bounds of one run's settings (the server's caps on questions, runs and concurrency are its config). */
export const EVAL_LIMITS = {
  models: 8,
  rounds: 5,
  samples: 25,
  fileBytes: 1_500_000,
  questionChars: 4_000,
  answerChars: 200,
  choices: 10,
} as const;

/** How often the dialog reads a running evaluation's progress. */
export const EVAL_POLL_MS = 1_000;
