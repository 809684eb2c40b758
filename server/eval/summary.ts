import { PANEL_METHODS, type EvalMethodResult, type EvalVariant } from '../../src/schemas/eval';
import { variantParts } from '../../src/schemas/evalConstants';
import { wilson } from './stats';

// A run's figures, read from its stored answers: the same sums in the server (from SQL) and the CLI (from memory),
// turned into results by one function, so both print the same figures.

export interface ResultRow {
  /** The method, or its variant with tools ('one_answer+tools'). */
  method: EvalVariant;
  idx: number;
  correct: boolean;
  answer: string | null;
  tokens: number;
  ms: number;
  unreadable: number;
  estimated: number;
  firstCorrect: boolean | null;
  rightToWrong: number;
  wrongToRight: number;
}

export interface MethodSums {
  done: number;
  correct: number;
  tokens: number;
  ms: number;
  unreadable: number;
  estimated: number;
  fvN: number;
  firstCorrect: number;
  finalCorrect: number;
  helped: number;
  hurt: number;
  rightToWrong: number;
  wrongToRight: number;
}

export const emptySums = (): MethodSums => ({
  done: 0,
  correct: 0,
  tokens: 0,
  ms: 0,
  unreadable: 0,
  estimated: 0,
  fvN: 0,
  firstCorrect: 0,
  finalCorrect: 0,
  helped: 0,
  hurt: 0,
  rightToWrong: 0,
  wrongToRight: 0,
});

export function sumRows(rows: ResultRow[]): Map<EvalVariant, MethodSums> {
  const out = new Map<EvalVariant, MethodSums>();
  for (const r of rows) {
    let s = out.get(r.method);
    if (!s) out.set(r.method, (s = emptySums()));
    s.done++;
    s.correct += r.correct ? 1 : 0;
    s.tokens += r.tokens;
    s.ms += r.ms;
    s.unreadable += r.unreadable;
    s.estimated += r.estimated;
    s.rightToWrong += r.rightToWrong;
    s.wrongToRight += r.wrongToRight;
    if (r.firstCorrect !== null) {
      s.fvN++;
      s.firstCorrect += r.firstCorrect ? 1 : 0;
      s.finalCorrect += r.correct ? 1 : 0;
      s.helped += !r.firstCorrect && r.correct ? 1 : 0;
      s.hurt += r.firstCorrect && !r.correct ? 1 : 0;
    }
  }
  return out;
}

const round = (x: number, places: number) => Math.round(x * 10 ** places) / 10 ** places;

export function methodResult(key: EvalVariant, total: number, s: MethodSums, k: number | null): EvalMethodResult {
  const { method, tools } = variantParts(key)!;
  const ci = wilson(s.correct, s.done);
  const isPanel = PANEL_METHODS.includes(method);
  return {
    method,
    ...(tools ? { with_tools: true } : {}),
    total,
    done: s.done,
    correct: s.correct,
    accuracy: s.done ? round(s.correct / s.done, 4) : null,
    ci_low: ci ? round(ci.low, 4) : null,
    ci_high: ci ? round(ci.high, 4) : null,
    tokens: s.tokens,
    tokens_per_question: s.done ? round(s.tokens / s.done, 1) : null,
    seconds_per_question: s.done ? round(s.ms / s.done / 1000, 2) : null,
    unreadable: s.unreadable,
    estimated_calls: s.estimated,
    k: method === 'self_consistency' ? k : null,
    first_vote: isPanel
      ? {
          n: s.fvN,
          first_correct: s.firstCorrect,
          final_correct: s.finalCorrect,
          helped: s.helped,
          hurt: s.hurt,
          right_to_wrong: s.rightToWrong,
          wrong_to_right: s.wrongToRight,
        }
      : null,
  };
}

/** The run's results in method order; a method not started yet shows 0 done. */
export function runResults(
  methods: EvalVariant[],
  total: number,
  sums: Map<EvalVariant, MethodSums>,
  k: number | null,
) {
  return methods.map((m) => methodResult(m, total, sums.get(m) ?? emptySums(), k));
}

/** Seconds left at the pace so far (questions run `parallel` at a time); null before any question is done. */
export function etaSeconds(results: EvalMethodResult[], parallel: number): number | null {
  const done = results.reduce((a, r) => a + r.done, 0);
  const ms = results.reduce((a, r) => a + (r.seconds_per_question ?? 0) * r.done, 0);
  if (!done) return null;
  const left = results.reduce((a, r) => a + (r.total - r.done), 0);
  return Math.round((left * (ms / done)) / Math.max(1, parallel));
}

/**
 * Each method's seconds left while the run runs, at its own pace; null for a method not started (another
 * method's pace says nothing about it: a panel costs many times a single answer).
 */
export function withEta(results: EvalMethodResult[], parallel: number, live: boolean): EvalMethodResult[] {
  return results.map((r) => {
    const per = r.done > 0 ? r.seconds_per_question : null;
    const eta = live && per !== null ? Math.round(((r.total - r.done) * per) / Math.max(1, parallel)) : null;
    return { ...r, eta_seconds: eta };
  });
}
