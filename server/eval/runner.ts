import {
  EVAL_LIMITS,
  PANEL_METHODS,
  type EvalMethod,
  type EvalRunSettings,
  type EvalTaskItem,
  type EvalVariant,
} from '../../src/schemas/eval';
import { variantParts, withToolsKey } from '../../src/schemas/evalConstants';
import { answerQuestion, type ModelCaller } from './methods';
import { sumRows, type ResultRow } from './summary';

// One run of an evaluation: the methods one after another (self-consistency last, so its k can be matched to
// what the panels spent), the questions of each a few at a time. Every answered question is stored at once;
// a stop or a failure drops only the questions in flight, and a resume asks exactly the ones not stored.

/** The order methods run in: the chain-of-thought sample's cost and the panels' spend are known before k is. */
export const METHOD_ORDER: EvalMethod[] = [
  'one_answer',
  'chain_of_thought',
  'round_table',
  'council',
  'debate',
  'self_consistency',
];

export interface RunStore {
  rows(): Promise<ResultRow[]>;
  save(row: ResultRow): Promise<void>;
  saveK(k: number): Promise<void>;
}

export interface RunSpec {
  items: EvalTaskItem[];
  settings: EvalRunSettings & { single: string; judge: string };
  /** Self-consistency's k once chosen (kept with the run, so a resume uses the same). */
  k: number | null;
}

export interface RunOptions {
  caller: ModelCaller;
  store: RunStore;
  signal: AbortSignal;
  /** Questions in flight at once. */
  parallel: number;
  /** Called after each stored question. */
  onProgress?: () => void;
  now?: () => number;
}

export type RunEnd = { status: 'done' | 'stopped' | 'failed'; detail: string | null };

/**
 * Self-consistency's k at equal tokens: the panel's tokens per question (the most expensive panel of the run)
 * over one chain-of-thought answer's, rounded, between 1 and EVAL_LIMITS.samples. Without a panel or a
 * chain-of-thought figure, the k the user chose.
 */
export function matchK(rows: ResultRow[], fallback: number): number {
  const sums = sumRows(rows);
  const cot = sums.get('chain_of_thought');
  const panels = PANEL_METHODS.map((m) => sums.get(m)).filter((s) => s && s.done > 0);
  if (!cot?.done || !panels.length) return fallback;
  const panelPerQ = Math.max(...panels.map((s) => s!.tokens / s!.done));
  const samplePerQ = cot.tokens / cot.done;
  if (samplePerQ <= 0) return fallback;
  return Math.min(EVAL_LIMITS.samples, Math.max(1, Math.round(panelPerQ / samplePerQ)));
}

/** The methods a run asks, in running order; equal tokens with a panel needs the chain-of-thought's figure. */
export function plannedMethods(s: Pick<EvalRunSettings, 'methods' | 'equal_tokens'>): EvalMethod[] {
  const want = new Set(s.methods);
  if (s.equal_tokens && want.has('self_consistency') && s.methods.some((m) => PANEL_METHODS.includes(m)))
    want.add('chain_of_thought');
  return METHOD_ORDER.filter((m) => want.has(m));
}

/** The planned methods, each followed by its variant with the calculator when the run asks for it. */
export function plannedVariants(
  s: Pick<EvalRunSettings, 'methods' | 'equal_tokens'> & { with_tools?: readonly EvalMethod[] },
): EvalVariant[] {
  const tools = new Set(s.with_tools ?? []);
  return plannedMethods(s).flatMap((m) => (tools.has(m) ? [m, withToolsKey(m, true)] : [m]));
}

export async function runEvaluation(spec: RunSpec, opts: RunOptions): Promise<RunEnd> {
  const now = opts.now ?? (() => Date.now());
  const { signal } = opts;
  const existing = await opts.store.rows();
  const doneKeys = new Set(existing.map((r) => `${r.method}#${r.idx}`));
  let spent = existing.reduce((a, r) => a + r.tokens, 0);
  const budget = spec.settings.budget_tokens ?? Infinity;
  let k = spec.k;
  let failure: string | null = null;

  for (const key of plannedVariants(spec.settings)) {
    const { method, tools } = variantParts(key)!;
    if (method === 'self_consistency' && k === null) {
      k = spec.settings.equal_tokens ? matchK(await opts.store.rows(), spec.settings.samples) : spec.settings.samples;
      await opts.store.saveK(k);
    }
    const pending = spec.items.map((_, i) => i).filter((i) => !doneKeys.has(`${key}#${i}`));
    let next = 0;
    const worker = async () => {
      while (next < pending.length && !signal.aborted && !failure && spent < budget) {
        const idx = pending[next++];
        const started = now();
        try {
          const out = await answerQuestion(method, spec.items[idx], {
            caller: opts.caller,
            settings: spec.settings,
            k: k ?? spec.settings.samples,
            tools,
          });
          if (signal.aborted) return;
          spent += out.tokens;
          await opts.store.save({ method: key, idx, ms: now() - started, ...out });
          opts.onProgress?.();
        } catch (e) {
          if (signal.aborted) return;
          failure = `${(e as Error)?.message ?? String(e)}`;
        }
      }
    };
    await Promise.all(Array.from({ length: Math.max(1, opts.parallel) }, worker));
    if (signal.aborted) return { status: 'stopped', detail: 'Stopped; resume to answer the remaining questions' };
    if (failure)
      return {
        status: 'failed',
        detail: `A model call failed: ${failure}. Resume to try the remaining questions again.`,
      };
    if (
      spent >= budget &&
      (await opts.store.rows()).length < spec.items.length * plannedVariants(spec.settings).length
    ) {
      return {
        status: 'stopped',
        detail: `The token budget (${budget}) is spent; resume with a larger budget to go on`,
      };
    }
  }
  return { status: 'done', detail: null };
}
