import { describe, expect, it } from 'vitest';
import type { EvalMethodResult } from '../../../src/schemas/eval';
import { withEta } from '../../../server/eval/summary';

// Time left per method while a run runs: a method not started has none (another method's pace says nothing of it).

const result = (method: EvalMethodResult['method'], done: number, perQuestion: number | null): EvalMethodResult => ({
  method,
  total: 10,
  done,
  correct: 0,
  accuracy: null,
  ci_low: null,
  ci_high: null,
  tokens: 0,
  tokens_per_question: null,
  seconds_per_question: perQuestion,
  unreadable: 0,
  estimated_calls: 0,
  k: null,
  first_vote: null,
});

describe('withEta', () => {
  it('gives a started method its time left and a method not started none', () => {
    const [started, waiting] = withEta([result('one_answer', 4, 1), result('round_table', 0, null)], 2, true);
    expect(started.eta_seconds).toBe(3);
    expect(waiting.eta_seconds).toBeNull();
  });

  it('gives no time once the run is not running', () => {
    expect(withEta([result('one_answer', 4, 1)], 1, false)[0].eta_seconds).toBeNull();
  });
});
