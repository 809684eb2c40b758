// The Evaluate dialog's form (README 'Does the panel help?'): its fields, the request it makes and why it cannot
// start yet. Pure: the evaluation chart (machines/evaluation.machine.ts) holds the form and asks these.
import type { EvalMethod, EvalRunCreate } from '../schemas/eval';
import { OFFLINE_MODEL } from '../schemas/constants';
import { PANEL_METHODS } from '../schemas/evalConstants';
import type { ModelOption } from '../schemas/system';

export interface EvalForm {
  taskKind: 'arithmetic' | 'reasoning' | 'file';
  seed: number;
  size: number;
  fileName: string | null;
  fileText: string | null;
  models: string[];
  methods: EvalMethod[];
  /** Methods asked a second time with the calculator (docs/evaluation.md#with-tools); only chosen ones count. */
  withTools: EvalMethod[];
  rounds: number;
  samples: number;
  equalTokens: boolean;
  /** Tokens the run may spend; null: no budget. */
  budget: number | null;
}

export const DEFAULT_EVAL_FORM: EvalForm = {
  taskKind: 'arithmetic',
  seed: 1,
  size: 20,
  fileName: null,
  fileText: null,
  models: [],
  methods: ['chain_of_thought', 'round_table'],
  withTools: [],
  rounds: 2,
  samples: 5,
  equalTokens: true,
  budget: null,
};

/** The request a form makes; null while it cannot start (the reason is selectStartBlocker's). */
export function formRequest(f: EvalForm): EvalRunCreate | null {
  if (!f.models.length || !f.methods.length) return null;
  const tasks =
    f.taskKind === 'arithmetic'
      ? { kind: 'arithmetic' as const, seed: f.seed, size: f.size }
      : f.taskKind === 'reasoning'
        ? { kind: 'reasoning' as const, size: f.size }
        : f.fileText !== null && f.fileName
          ? { kind: 'file' as const, name: f.fileName, jsonl: f.fileText }
          : null;
  if (!tasks) return null;
  const withTools = f.withTools.filter((m) => f.methods.includes(m));
  return {
    tasks,
    models: f.models,
    methods: f.methods,
    ...(withTools.length ? { with_tools: withTools } : {}),
    rounds: f.rounds,
    samples: f.samples,
    equal_tokens: f.equalTokens,
    ...(f.budget ? { budget_tokens: f.budget } : {}),
  };
}

/** Models that cannot take part: the offline demo model writes prose, it does not answer questions. */
export const cannotAnswer = (m: Pick<ModelOption, 'offline'>) => m.offline;

/** Why the form's models and methods cannot run, in words; null when they can (the file is checked apart). */
export function formProblem(f: EvalForm, models: readonly ModelOption[]): string | null {
  if (!f.models.length) return 'Choose at least one model.';
  if (!f.methods.length) return 'Choose at least one method.';
  const demo = f.models.findIndex((v) => v === OFFLINE_MODEL || models.some((m) => m.value === v && cannotAnswer(m)));
  if (demo >= 0) return `Agent ${demo + 1}: the offline demo model cannot answer questions; choose another model.`;
  if (f.models.length < 2 && f.methods.some((m) => PANEL_METHODS.includes(m)))
    return 'A panel (Round table, Council, Debate) needs two seats or more: add an agent, or choose single-model methods only.';
  return null;
}
