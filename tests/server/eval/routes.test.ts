import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { evalFileCheck, evalRun, evalRunList, type EvalRun } from '../../../src/schemas/eval';
import { startScriptedOllama } from '../../support/scriptedModels';
import { startTestServer, type TestServer } from '../harness';

// Evaluations over HTTP, on the user's own Ollama connection (a scripted loopback model): a run stopped half way
// and resumed answers every question exactly once; bad task files are refused line by line; runs are the user's.

describe('evaluation routes', () => {
  let t: TestServer;
  let ollama: Awaited<ReturnType<typeof startScriptedOllama>>;
  beforeAll(async () => {
    [t, ollama] = await Promise.all([
      startTestServer({ evalParallelQuestions: 2, evalMaxQuestions: 50, evalMaxRuns: 3 }),
      startScriptedOllama({ p: 0.7, seed: 1, models: ['tiny:1b'], delayMs: 15 }),
    ]);
  });
  afterAll(() => Promise.all([t.close(), ollama.close()]));

  async function userWithModel() {
    const { token } = await t.register();
    const c = await t.api('POST', '/model-connections', {
      token,
      body: { kind: 'ollama', name: 'Home', base_url: ollama.url },
    });
    expect(c.status).toBe(201);
    return { token, model: `@${c.body.id}/tiny:1b` };
  }

  async function until(
    token: string,
    id: string,
    check: (r: EvalRun) => boolean,
    timeoutMs = 30_000,
  ): Promise<EvalRun> {
    const end = Date.now() + timeoutMs;
    for (;;) {
      const r = await t.api('GET', `/eval/runs/${id}`, { token });
      const run = evalRun.parse(r.body);
      if (check(run)) return run;
      if (Date.now() > end) throw new Error(`timed out; last: ${JSON.stringify(run).slice(0, 400)}`);
      await new Promise((res) => setTimeout(res, 50));
    }
  }

  it('stops half way and resumes without losing or repeating a question', async () => {
    const { token, model } = await userWithModel();
    const body = {
      tasks: { kind: 'arithmetic', seed: 4, size: 30 },
      models: [model, model],
      methods: ['one_answer', 'round_table'],
      rounds: 2,
    };
    const started = await t.api('POST', '/eval/runs', { token, body });
    expect(started.status).toBe(201);
    const id = started.body.id as string;
    await until(token, id, (r) => r.results.reduce((a, m) => a + m.done, 0) >= 8);
    const stopped = evalRun.parse((await t.api('POST', `/eval/runs/${id}/stop`, { token })).body);
    expect(stopped.status).toBe('stopped');
    const doneAtStop = stopped.results.map((r) => r.done);
    expect(doneAtStop.reduce((a, b) => a + b, 0)).toBeLessThan(60);
    // Nothing moves while stopped.
    const later = evalRun.parse((await t.api('GET', `/eval/runs/${id}`, { token })).body);
    expect(later.results.map((r) => r.done)).toEqual(doneAtStop);

    const resumed = await t.api('POST', `/eval/runs/${id}/resume`, { token, body: {} });
    expect(resumed.status).toBe(200);
    const done = await until(token, id, (r) => r.status === 'done');
    expect(done.results.map((r) => [r.method, r.done, r.total])).toEqual([
      ['one_answer', 30, 30],
      ['round_table', 30, 30],
    ]);
    const rows = await t.server.ctx.db.query<{ method: string; n: number }>(
      'SELECT method, count(*)::int AS n FROM eval_results WHERE run_id = $1 GROUP BY method ORDER BY method',
      [id],
    );
    expect(rows).toEqual([
      { method: 'one_answer', n: 30 },
      { method: 'round_table', n: 30 },
    ]);
    expect(done.results[1].first_vote?.n).toBe(30);
    expect(done.tokens_used).toBe(30 * 70 + 30 * 4 * 70);

    // Listed for its owner, invisible to anyone else.
    const list = evalRunList.parse((await t.api('GET', '/eval/runs', { token })).body);
    expect(list.runs.map((r) => r.id)).toContain(id);
    const other = await t.register();
    expect((await t.api('GET', `/eval/runs/${id}`, { token: other.token })).status).toBe(404);
    expect((await t.api('POST', `/eval/runs/${id}/stop`, { token: other.token })).status).toBe(404);
    expect(evalRunList.parse((await t.api('GET', '/eval/runs', { token: other.token })).body).runs).toEqual([]);
  }, 60_000);

  it('names each bad line of a task file and starts nothing', async () => {
    const { token, model } = await userWithModel();
    const jsonl = [
      '{"question": "2+2?", "answer": "4"}',
      '{"question": "Capital of France?" "answer": "Paris"}',
      '{"question": "Which is a fruit?", "answer": "E", "choices": ["Apple", "Stone"]}',
      '',
      '{"question": "No answer here"}',
      '["a list"]',
      '{"question": "Pick one", "answer": "Stone", "choices": ["Apple", "Stone"]}',
    ].join('\n');
    const check = evalFileCheck.parse((await t.api('POST', '/eval/tasks/check', { token, body: { jsonl } })).body);
    expect(check.ok).toBe(false);
    expect(check.count).toBe(2);
    expect(check.errors).toEqual([
      { line: 2, message: 'not valid JSON' },
      { line: 3, message: '"answer" must be one of the choices or its letter (A–B)' },
      { line: 5, message: '"answer" is missing' },
      { line: 6, message: 'must be a JSON object with "question" and "answer"' },
    ]);
    const r = await t.api('POST', '/eval/runs', {
      token,
      body: { tasks: { kind: 'file', name: 'mine.jsonl', jsonl }, models: [model], methods: ['one_answer'] },
    });
    expect(r.status).toBe(422);
    expect(r.body.detail).toContain('line 2: not valid JSON');
    expect(r.body.detail).toContain('line 5: "answer" is missing');
    const demo = await t.api('POST', '/eval/runs', {
      token,
      body: { tasks: { kind: 'reasoning', size: 2 }, models: [model, 'offline'], methods: ['round_table'] },
    });
    expect(demo.status).toBe(422);
    expect(demo.body.detail).toContain('The offline demo model cannot answer questions');
    expect(evalRunList.parse((await t.api('GET', '/eval/runs', { token })).body).runs).toEqual([]);

    const good = await t.api('POST', '/eval/runs', {
      token,
      body: {
        tasks: {
          kind: 'file',
          name: 'mine.jsonl',
          jsonl: '{"question": "Pick one", "answer": "Stone", "choices": ["Apple", "Stone"]}',
        },
        models: [model],
        methods: ['one_answer'],
      },
    });
    expect(good.status).toBe(201);
    expect(good.body.tasks).toEqual({ kind: 'file', label: 'mine.jsonl (1 questions)' });
  });

  it('keeps to its caps: questions per run and stored runs per user, each with a clear error', async () => {
    const { token, model } = await userWithModel();
    const big = await t.api('POST', '/eval/runs', {
      token,
      body: { tasks: { kind: 'arithmetic', seed: 1, size: 51 }, models: [model], methods: ['one_answer'] },
    });
    expect(big.status).toBe(422);
    expect(big.body.detail).toContain('at most 50 questions');
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) {
      const r = await t.api('POST', '/eval/runs', {
        token,
        body: { tasks: { kind: 'reasoning', size: 2 }, models: [model], methods: ['one_answer'] },
      });
      expect(r.status).toBe(201);
      ids.push(r.body.id);
      await until(token, r.body.id, (x) => x.status === 'done');
    }
    const fourth = await t.api('POST', '/eval/runs', {
      token,
      body: { tasks: { kind: 'reasoning', size: 2 }, models: [model], methods: ['one_answer'] },
    });
    expect(fourth.status).toBe(409);
    expect(fourth.body.detail).toContain('delete one');
    expect((await t.api('DELETE', `/eval/runs/${ids[0]}`, { token })).status).toBe(200);
    expect(
      (
        await t.api('POST', '/eval/runs', {
          token,
          body: { tasks: { kind: 'reasoning', size: 2 }, models: [model], methods: ['one_answer'] },
        })
      ).status,
    ).toBe(201);
  }, 60_000);

  it('refuses a model whose connection does not exist', async () => {
    const { token } = await t.register();
    const r = await t.api('POST', '/eval/runs', {
      token,
      body: { tasks: { kind: 'reasoning' }, models: ['@nope/x'], methods: ['one_answer'] },
    });
    expect(r.status).toBe(422);
    expect(r.body.detail).toContain('no longer exists');
  });
});
