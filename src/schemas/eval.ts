import { z } from 'zod';
// First, so zod is configured (no run-time code in a browser) before these schemas are built.
import { text } from './common';
import { OFFLINE_MODEL } from './constants';
import { EVAL_LIMITS, EVAL_METHODS } from './evalConstants';

// Evaluations (README 'Does the panel help?'): a panel of models against one model, on a task set, at equal
// tokens. The REST surface under /eval, shared by the SPA, the server and the CLI.

export {
  EVAL_LIMITS,
  EVAL_METHODS,
  EVAL_METHOD_LABELS,
  EVAL_POLL_MS,
  PANEL_METHODS,
  type EvalMethod,
  type EvalVariant,
} from './evalConstants';
export const evalMethod = z.enum(EVAL_METHODS);

export const evalTaskItem = z.object({
  question: text().trim().min(1).max(EVAL_LIMITS.questionChars),
  answer: text().trim().min(1).max(EVAL_LIMITS.answerChars),
  choices: z.array(text().trim().min(1).max(500)).min(2).max(EVAL_LIMITS.choices).optional(),
});
export type EvalTaskItem = z.infer<typeof evalTaskItem>;

export const evalTaskSpec = z.discriminatedUnion('kind', [
  /** Du et al.'s a+b*c+d-e*f, generated from the seed. */
  z.object({
    kind: z.literal('arithmetic'),
    seed: z
      .number()
      .int()
      .min(0)
      .max(2 ** 31 - 1),
    size: z.number().int().min(1),
  }),
  /** The team's own multiple-choice reasoning questions (server/eval/reasoningSet.ts). */
  z.object({ kind: z.literal('reasoning'), size: z.number().int().min(1).optional() }),
  /** The user's JSONL: one {question, answer, choices?} per line. */
  z.object({
    kind: z.literal('file'),
    name: text().trim().min(1).max(200),
    jsonl: z.string().max(EVAL_LIMITS.fileBytes, 'The file is larger than 1.5 MB'),
  }),
]);
export type EvalTaskSpec = z.infer<typeof evalTaskSpec>;

const modelName = text().trim().min(1).max(300);

export const evalRunCreate = z
  .object({
    name: text().trim().max(120).optional(),
    tasks: evalTaskSpec,
    /** The panel's agents, by model id; a model may be named more than once (the same model as several agents). */
    models: z.array(modelName).min(1, 'Choose at least one model').max(EVAL_LIMITS.models),
    /** The one model of the single-model methods; the first panel model when absent. */
    single_model: modelName.optional(),
    /** The debate's judge and the council's chair; the first panel model when absent. */
    judge_model: modelName.optional(),
    methods: z.array(evalMethod).min(1, 'Choose at least one method').max(EVAL_METHODS.length),
    /** Methods asked a second time with the calculator tool, each shown beside its plain result. */
    with_tools: z.array(evalMethod).max(EVAL_METHODS.length).default([]),
    rounds: z.number().int().min(1).max(EVAL_LIMITS.rounds).default(2),
    /** Self-consistency's k when equal tokens is off (or no panel ran). */
    samples: z.number().int().min(1).max(EVAL_LIMITS.samples).default(5),
    equal_tokens: z.boolean().default(true),
    /** The run stops (resumable) once it has spent this many tokens; none when absent. */
    budget_tokens: z.number().int().min(1).optional(),
    max_tokens_per_call: z.number().int().min(16).max(8192).default(512),
    temperature: z.number().min(0).max(2).default(0.7),
  })
  .refine((b) => new Set(b.methods).size === b.methods.length, 'A method is listed twice')
  .refine((b) => (b.with_tools ?? []).every((m) => b.methods.includes(m)), 'A method with tools must be chosen too')
  .refine(
    (b) => ![...b.models, b.single_model, b.judge_model].includes(OFFLINE_MODEL),
    'The offline demo model cannot answer questions; choose another model',
  );
export type EvalRunCreate = z.input<typeof evalRunCreate>;
export type EvalRunSettings = z.output<typeof evalRunCreate>;

/** What a view shows of the task set: the file's lines stay on the server. */
export const evalTaskView = z.object({
  kind: z.enum(['arithmetic', 'reasoning', 'file']),
  label: z.string(),
  seed: z.number().optional(),
});

export const evalFirstVote = z.object({
  /** Questions whose first vote (the agents' first answers, majority) and final answer are known. */
  n: z.number(),
  first_correct: z.number(),
  final_correct: z.number(),
  /** First vote wrong, final answer right. */
  helped: z.number(),
  /** First vote right, final answer wrong. */
  hurt: z.number(),
  /** One agent's answer from one round to the next. */
  right_to_wrong: z.number(),
  wrong_to_right: z.number(),
});
export type EvalFirstVote = z.infer<typeof evalFirstVote>;

export const evalMethodResult = z.object({
  method: evalMethod,
  /** This is the method asked with the calculator tool (absent: without). */
  with_tools: z.boolean().optional(),
  total: z.number(),
  done: z.number(),
  correct: z.number(),
  accuracy: z.number().nullable(),
  /** 95 % Wilson score interval. */
  ci_low: z.number().nullable(),
  ci_high: z.number().nullable(),
  tokens: z.number(),
  tokens_per_question: z.number().nullable(),
  seconds_per_question: z.number().nullable(),
  /** Answers that stayed unreadable after the repair request (counted wrong). */
  unreadable: z.number(),
  /** How many calls' tokens were estimated (no usage from the server, no tokenizer). */
  estimated_calls: z.number(),
  /** Self-consistency's k (matched to the panel's spend when equal tokens is on). */
  k: z.number().nullable(),
  first_vote: evalFirstVote.nullable(),
  /** Seconds this method still needs at the run's pace, while the run runs; null otherwise. */
  eta_seconds: z.number().nullable().optional(),
});
export type EvalMethodResult = z.infer<typeof evalMethodResult>;

export const EVAL_STATUSES = ['running', 'stopping', 'stopped', 'done', 'failed'] as const;
export const evalRun = z.object({
  id: z.string(),
  name: z.string(),
  created_at: z.string(),
  status: z.enum(EVAL_STATUSES),
  /** Why it stopped or failed, in words. */
  detail: z.string().nullable(),
  tasks: evalTaskView,
  question_count: z.number(),
  models: z.array(z.string()),
  single_model: z.string(),
  judge_model: z.string(),
  methods: z.array(evalMethod),
  /** The methods also asked with the calculator (absent in runs made before). */
  with_tools: z.array(evalMethod).optional(),
  rounds: z.number(),
  equal_tokens: z.boolean(),
  budget_tokens: z.number().nullable(),
  tokens_used: z.number(),
  /** Seconds left at the current pace, for the whole run; null before a question is done. */
  eta_seconds: z.number().nullable(),
  results: z.array(evalMethodResult),
});
export type EvalRun = z.infer<typeof evalRun>;

export const evalRunList = z.object({ runs: z.array(evalRun) });
export type EvalRunList = z.infer<typeof evalRunList>;

/** A task file's problems, one per bad line (the run is not created). */
export const evalFileError = z.object({ line: z.number(), message: z.string() });
export const evalFileCheck = z.object({ ok: z.boolean(), count: z.number(), errors: z.array(evalFileError) });
export type EvalFileCheck = z.infer<typeof evalFileCheck>;
