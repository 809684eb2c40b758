import { afterEach, describe, expect, it } from 'vitest';
import { evalRunCreate, type EvalMethod } from '../../../src/schemas/eval';
import { makeCaller } from '../../../server/eval/caller';
import { matchK, runEvaluation, type RunStore } from '../../../server/eval/runner';
import { majority, wilson } from '../../../server/eval/stats';
import { runResults, sumRows, type ResultRow } from '../../../server/eval/summary';
import { arithmeticTasks } from '../../../server/eval/tasks';
import { createOllamaProvider } from '../../../server/providers/llm/ollama';
import { createOpenAiProvider } from '../../../server/providers/llm/openai';
import type { ChatRequest, LlmProvider } from '../../../server/providers/types';
import { startScriptedOllama, startScriptedOpenAi, type ScriptedOptions } from '../../support/scriptedModels';

// The harness against theory, with scripted models over the real protocols: a majority of five answers right
// with p = 0.6 is right with probability 0.68256; equal tokens gives self-consistency the k that spends what the
// panel spent; unreadable answers get one repair request; usage missing is estimated and counted as such.

const closers: Array<() => Promise<void>> = [];
afterEach(async () => {
  await Promise.all(closers.splice(0).map((c) => c()));
});

function memoryStore(): RunStore & { all: ResultRow[]; k: number | null } {
  const s = {
    all: [] as ResultRow[],
    k: null as number | null,
    rows: async () => [...s.all],
    save: async (r: ResultRow) => void s.all.push(r),
    saveK: async (k: number) => void (s.k = k),
  };
  return s;
}

async function scripted(kind: 'openai' | 'ollama', opts: ScriptedOptions) {
  const fake = kind === 'openai' ? await startScriptedOpenAi(opts) : await startScriptedOllama(opts);
  closers.push(fake.close);
  const provider: LlmProvider =
    kind === 'openai' ? createOpenAiProvider({ baseUrl: `${fake.url}/v1` }) : createOllamaProvider({ host: fake.url });
  return { fake, resolve: async (model: string) => ({ provider, model }) };
}

async function run(resolve: Parameters<typeof makeCaller>[0], settings: object, size: number, seed = 7) {
  const s = evalRunCreate.parse({ tasks: { kind: 'arithmetic', seed, size }, ...settings });
  const full = { ...s, single: s.single_model ?? s.models[0], judge: s.judge_model ?? s.models[0] };
  const signal = new AbortController().signal;
  const caller = await makeCaller(resolve, [...s.models, full.single, full.judge], {
    maxTokens: 64,
    temperature: 0.7,
    signal,
  });
  const store = memoryStore();
  const end = await runEvaluation(
    { items: arithmeticTasks(seed, size), settings: full, k: null },
    { caller, store, signal, parallel: 8 },
  );
  const results = runResults(s.methods as EvalMethod[], size, sumRows(store.all), store.k);
  return { end, store, results, byMethod: (m: EvalMethod) => results.find((r) => r.method === m)! };
}

describe('figures', () => {
  it('Wilson intervals match the published values', () => {
    const a = wilson(6, 10)!;
    expect(a.low).toBeCloseTo(0.3127, 3);
    expect(a.high).toBeCloseTo(0.8318, 3);
    const b = wilson(0, 10)!;
    expect(b.low).toBe(0);
    expect(b.high).toBeCloseTo(0.2775, 3);
    expect(wilson(0, 0)).toBeNull();
  });

  it('the vote is a plurality, ties go to the answer given first, unreadable answers do not vote', () => {
    expect(majority(['3', '4', '4', null, '3', '4'])).toBe('4');
    expect(majority(['5', '6'])).toBe('5');
    expect(majority([null, null])).toBeNull();
  });

  it("generates Du et al.'s arithmetic the same way for a seed, with right answers", () => {
    const a = arithmeticTasks(42, 50);
    expect(arithmeticTasks(42, 50)).toEqual(a);
    expect(arithmeticTasks(43, 50)).not.toEqual(a);
    for (const t of a) {
      const [x, y, z, u, v, w] = /(\d+)\+(\d+)\*(\d+)\+(\d+)-(\d+)\*(\d+)/.exec(t.question)!.slice(1).map(Number);
      expect(t.answer).toBe(String(x + y * z + u - v * w));
      expect(Math.max(x, y, z, u, v, w)).toBeLessThan(30);
    }
  });
});

describe('the harness against theory (scripted models)', () => {
  it("self-consistency, majority of 5 at p = 0.6: 0.683 within sampling error, and exactly the fake's own count", async () => {
    const { fake, resolve } = await scripted('openai', { p: 0.6, seed: 11, models: ['m'] });
    const n = 300;
    const { end, byMethod } = await run(
      resolve,
      { models: ['m'], methods: ['self_consistency'], samples: 5, equal_tokens: false },
      n,
    );
    expect(end.status).toBe('done');
    const sc = byMethod('self_consistency');
    expect(sc.done).toBe(n);
    expect(sc.k).toBe(5);
    // Theory: P(at least 3 of 5) = 0.68256; three standard errors at n = 300 is 0.08.
    const theory = 0.68256;
    expect(Math.abs(sc.accuracy! - theory)).toBeLessThan(3 * Math.sqrt((theory * (1 - theory)) / n));
    // Exactly: the questions where the fake itself gave at least 3 right answers out of the 5 samples.
    const perQuestion = new Map<string, number[]>();
    for (const l of fake.script.log)
      perQuestion.set(l.conversation, [...(perQuestion.get(l.conversation) ?? []), l.right ? 1 : 0]);
    expect([...perQuestion.values()].every((v) => v.length === 5)).toBe(true);
    const expected = [...perQuestion.values()].filter((v) => v.reduce((a, b) => a + b, 0) >= 3).length;
    expect(sc.correct).toBe(expected);
    // And the same seed gives the same figure on another run.
    const again = await run(
      (await scripted('openai', { p: 0.6, seed: 11, models: ['m'] })).resolve,
      { models: ['m'], methods: ['self_consistency'], samples: 5, equal_tokens: false },
      n,
    );
    expect(again.byMethod('self_consistency').correct).toBe(sc.correct);
  }, 60_000);

  it('one answer at p = 0.6 is right 60 % of the time within sampling error (Ollama, usage from eval_count)', async () => {
    const { resolve } = await scripted('ollama', { p: 0.6, seed: 3, models: ['llama'] });
    const n = 300;
    const { byMethod } = await run(resolve, { models: ['llama'], methods: ['one_answer'] }, n);
    const one = byMethod('one_answer');
    expect(Math.abs(one.accuracy! - 0.6)).toBeLessThan(3 * Math.sqrt(0.24 / n));
    expect(one.tokens_per_question).toBe(70);
    expect(one.estimated_calls).toBe(0);
    expect(one.ci_low!).toBeLessThan(one.accuracy!);
    expect(one.ci_high!).toBeGreaterThan(one.accuracy!);
  });

  it('equal tokens: self-consistency gets the k that spends what the most expensive panel spent', async () => {
    const { resolve } = await scripted('openai', {
      p: 0.7,
      seed: 5,
      models: ['a', 'b', 'c'],
      usage: { prompt: 50, completion: 20 },
    });
    // Round table: 3 agents × 2 rounds = 6 calls of 70 tokens; debate: 2 debaters × 2 rounds + a judge = 5 calls.
    const { store, byMethod, results } = await run(
      resolve,
      { models: ['a', 'b', 'c'], methods: ['round_table', 'self_consistency'], rounds: 2, equal_tokens: true },
      20,
    );
    expect(store.k).toBe(6);
    expect(byMethod('round_table').tokens_per_question).toBe(420);
    expect(byMethod('self_consistency').tokens_per_question).toBe(420);
    // The chain-of-thought ran as the reference for one sample's cost, though it was not asked for.
    expect(results.map((r) => r.method)).toEqual(['round_table', 'self_consistency']);
    expect(store.all.filter((r) => r.method === 'chain_of_thought')).toHaveLength(20);
    expect(matchK(store.all, 5)).toBe(6);

    const debate = await run(
      resolve,
      { models: ['a', 'b'], methods: ['debate', 'self_consistency'], rounds: 2, equal_tokens: true },
      10,
    );
    expect(debate.store.k).toBe(5);
    const off = await run(
      resolve,
      { models: ['a', 'b'], methods: ['debate', 'self_consistency'], rounds: 2, equal_tokens: false, samples: 3 },
      5,
    );
    expect(off.store.k).toBe(3);
  });

  it("panels report the first vote against the final answer, and agents' moves between rounds", async () => {
    const { resolve } = await scripted('openai', { p: 0.5, seed: 9, models: ['a', 'b', 'c'] });
    const { byMethod } = await run(
      resolve,
      { models: ['a', 'b', 'c'], methods: ['round_table', 'council', 'debate'], rounds: 3 },
      60,
    );
    for (const m of ['round_table', 'council', 'debate'] as const) {
      const fv = byMethod(m).first_vote!;
      expect(fv.n).toBe(60);
      expect(fv.final_correct).toBe(byMethod(m).correct);
      expect(fv.final_correct - fv.first_correct).toBe(fv.helped - fv.hurt);
      // With p = 0.5 per answer, some agents move each way over 60 questions × 3 agents × 2 changes.
      expect(fv.right_to_wrong).toBeGreaterThan(0);
      expect(fv.wrong_to_right).toBeGreaterThan(0);
    }
  });

  it('an unreadable answer gets one repair request; without usage the tokens are estimated and counted as such', async () => {
    const { fake, resolve } = await scripted('openai', {
      p: 1,
      seed: 2,
      models: ['m'],
      unreadable: 0.5,
      usage: 'none',
    });
    const { byMethod } = await run(resolve, { models: ['m'], methods: ['chain_of_thought'] }, 40);
    const cot = byMethod('chain_of_thought');
    const repairs = fake.script.calls - 40;
    expect(repairs).toBeGreaterThan(5);
    expect(cot.correct).toBe(40);
    expect(cot.unreadable).toBe(0);
    expect(cot.estimated_calls).toBe(40 + repairs);
  });

  it('an answer still unreadable after the repair is wrong and counted', async () => {
    const resolve = async (model: string) => ({
      model,
      provider: {
        id: 'x',
        label: 'x',
        owns: () => true,
        listModels: async () => [],
        probe: async () => ({ status: 'ok' as const }),
        chat: async () => ({ content: 'No idea.', model, provider: 'x', durationMs: 1 }),
      },
    });
    const { byMethod } = await run(resolve, { models: ['m'], methods: ['one_answer'] }, 5);
    expect(byMethod('one_answer')).toMatchObject({ correct: 0, unreadable: 5, done: 5, estimated_calls: 10 });
  });

  it('stops at the token budget, resumable, with the reason in words', async () => {
    const { resolve } = await scripted('openai', {
      p: 0.5,
      seed: 4,
      models: ['m'],
      usage: { prompt: 50, completion: 20 },
    });
    const { end, byMethod } = await run(resolve, { models: ['m'], methods: ['one_answer'], budget_tokens: 700 }, 40);
    expect(end.status).toBe('stopped');
    expect(end.detail).toContain('token budget (700)');
    // 70 tokens a question: at least 10 are answered, and the questions in flight when it was reached (8 at once).
    const done = byMethod('one_answer').done;
    expect(done).toBeGreaterThanOrEqual(10);
    expect(done).toBeLessThan(40);
  });

  it('the built-in engine answers through its grammar: a JSON answer, no answer line asked for, no repair', async () => {
    const seen: Array<{ schema: unknown; prompt: string }> = [];
    const resolve = async (model: string) => ({
      model,
      provider: {
        id: 'builtin',
        label: 'Built-in',
        owns: () => true,
        listModels: async () => [],
        probe: async () => ({ status: 'ok' as const }),
        chat: async (req: ChatRequest) => {
          seen.push({ schema: req.jsonSchema, prompt: req.messages.at(-1)!.content });
          const expr = /(\d+)\+(\d+)\*(\d+)\+(\d+)-(\d+)\*(\d+)/
            .exec(req.messages.at(-1)!.content)!
            .slice(1)
            .map(Number);
          const right = expr[0] + expr[1] * expr[2] + expr[3] - expr[4] * expr[5];
          const content = JSON.stringify({ reasoning: 'Multiplication first.', answer: String(right) });
          return {
            content,
            model,
            provider: 'builtin',
            durationMs: 1,
            usage: { promptTokens: 30, completionTokens: 10 },
          };
        },
      },
    });
    const { byMethod } = await run(resolve, { models: ['builtin:tiny.gguf'], methods: ['chain_of_thought'] }, 6);
    expect(byMethod('chain_of_thought')).toMatchObject({ correct: 6, unreadable: 0, tokens_per_question: 40 });
    expect(seen).toHaveLength(6);
    expect(seen[0].schema).toMatchObject({ required: ['reasoning', 'answer'] });
    expect(seen[0].prompt).not.toContain('Answer:');
  });
});
