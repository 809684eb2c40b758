import type { ServerResponse } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createOpenAiProvider } from '../../../server/providers/llm/openai';
import type { LlmRegistry } from '../../../server/providers/types';
import { main } from '../../../server/eval/cli';
import { evalRun, type EvalRun } from '../../../src/schemas/eval';
import { sendJson, startLoopback, type Recorded } from '../../support/loopback';
import { testProviders } from '../engine/helpers';
import { startTestServer, type TestServer } from '../harness';

// Evaluate 'with tools' (docs/evaluation.md#with-tools): a method asked a second time with the calculator, on the
// arithmetic set, beside its plain result. The loopback model speaks OpenAI's tool protocol: offered the
// calculator, it asks it for the question's expression and answers with what it said; without it, it guesses 0.

function sse(res: ServerResponse, events: object[]) {
  res.writeHead(200, { 'content-type': 'text/event-stream' });
  for (const e of events) res.write(`data: ${JSON.stringify(e)}\n\n`);
  res.end('data: [DONE]\n\n');
}

const usage = { prompt_tokens: 20, completion_tokens: 5, total_tokens: 25 };

async function fakeOpenAi() {
  return startLoopback((req: Recorded, res) => {
    if (req.method !== 'POST') return sendJson(res, 200, { data: [{ id: 'gpt-test' }] });
    const body = req.json();
    const offered = (body.tools ?? []).map((t: any) => t.function.name);
    const toolAnswer = [...(body.messages as any[])].reverse().find((m) => m.role === 'tool');
    const question = String(body.messages.find((m: any) => m.role === 'user')?.content ?? '');
    const expression = question.match(/result of ([\d+*-]+)\?/)?.[1] ?? '1+1';
    if (offered.includes('calculator') && !toolAnswer)
      return sse(res, [
        {
          choices: [
            {
              delta: {
                tool_calls: [
                  {
                    index: 0,
                    id: 'call_1',
                    function: { name: 'calculator', arguments: JSON.stringify({ expression }) },
                  },
                ],
              },
              finish_reason: 'tool_calls',
            },
          ],
        },
        { choices: [], usage },
      ]);
    const said = toolAnswer ? String(toolAnswer.content).match(/^-?\d+$/m)?.[0] : null;
    return sse(res, [{ choices: [{ delta: { content: `Answer: ${said ?? '0'}` } }] }, { choices: [], usage }]);
  });
}

describe("Evaluate 'with tools'", () => {
  let t: TestServer;
  let openai: Awaited<ReturnType<typeof fakeOpenAi>>;
  beforeAll(async () => {
    openai = await fakeOpenAi();
    const provider = createOpenAiProvider({ baseUrl: openai.url });
    const llm: LlmRegistry = { listModels: async () => [], forModel: () => provider, probe: () => provider.probe() };
    t = await startTestServer({ evalParallelQuestions: 2 }, { providers: testProviders({ llm }) });
  });
  afterAll(() => Promise.all([t.close(), openai.close()]));

  async function until(token: string, id: string, check: (r: EvalRun) => boolean): Promise<EvalRun> {
    const end = Date.now() + 30_000;
    for (;;) {
      const run = evalRun.parse((await t.api('GET', `/eval/runs/${id}`, { token })).body);
      if (check(run)) return run;
      if (Date.now() > end) throw new Error(`timed out; last: ${JSON.stringify(run).slice(0, 400)}`);
      await new Promise((r) => setTimeout(r, 50));
    }
  }

  it('asks the method again with the calculator, and shows both results side by side', async () => {
    const { token } = await t.register();
    const started = await t.api('POST', '/eval/runs', {
      token,
      body: {
        tasks: { kind: 'arithmetic', seed: 3, size: 6 },
        models: ['gpt-test'],
        methods: ['one_answer'],
        with_tools: ['one_answer'],
      },
    });
    expect(started.status).toBe(201);
    const done = await until(token, started.body.id, (r) => r.status !== 'running');
    expect(done.status).toBe('done');
    expect(done.with_tools).toEqual(['one_answer']);
    expect(done.results.map((r) => [r.method, r.with_tools ?? false, r.done, r.correct])).toEqual([
      ['one_answer', false, 6, expect.any(Number)],
      ['one_answer', true, 6, 6],
    ]);
    // Guessing 0 is right only where the expression happens to be 0.
    expect(done.results[0].correct).toBeLessThan(6);
    // The tokens of both model calls of a question with the calculator are counted, not the last one's alone.
    expect(done.results[1].tokens).toBe(6 * 2 * 25);
    expect(done.results[0].tokens).toBe(6 * 25);
    const rows = await t.server.ctx.db.query<{ method: string; n: number }>(
      'SELECT method, count(*)::int AS n FROM eval_results WHERE run_id = $1 GROUP BY method ORDER BY method',
      [done.id],
    );
    expect(rows).toEqual([
      { method: 'one_answer', n: 6 },
      { method: 'one_answer+tools', n: 6 },
    ]);
    // Each question with tools: the request that asks, and the one that reads the calculator's marked answer.
    const calls = openai.requests.filter((r) => r.method === 'POST').map((r) => r.json());
    const withTools = calls.filter((b) => b.tools?.length);
    expect(withTools).toHaveLength(12);
    const answered = withTools.filter((b) => b.messages.some((m: any) => m.role === 'tool'));
    expect(answered).toHaveLength(6);
    for (const b of answered)
      expect(b.messages.find((m: any) => m.role === 'tool').content).toContain('<tool_output tool="calculator"');
  });

  it('refuses tools for a method the run does not ask', async () => {
    const { token } = await t.register();
    const r = await t.api('POST', '/eval/runs', {
      token,
      body: {
        tasks: { kind: 'arithmetic', seed: 3, size: 2 },
        models: ['gpt-test'],
        methods: ['one_answer'],
        with_tools: ['chain_of_thought'],
      },
    });
    expect(r.status).toBe(422);
    expect(JSON.stringify(r.body)).toContain('A method with tools must be chosen too');
  });

  it('the CLI takes --with-tools and prints the calculator variant beside the plain method', async () => {
    const out: string[] = [];
    const err: string[] = [];
    const code = await main(
      [
        '--models',
        'openai:gpt-test',
        '--methods',
        'one',
        '--with-tools',
        'one',
        '--tasks',
        'arithmetic:3',
        '--seed',
        '3',
      ],
      { out: (l) => out.push(l), err: (l) => err.push(l), env: { OPENAI_BASE_URL: openai.url, OLLAMA_HOST: '' } },
    );
    expect(err.join('\n')).not.toContain('failed');
    expect(code).toBe(0);
    const table = out.join('\n');
    expect(table).toMatch(/One answer \+ calculator\s+3\/3\s+100\.0 %/);
    expect(table).toMatch(/One answer\s+3\/3/);
  });
});
