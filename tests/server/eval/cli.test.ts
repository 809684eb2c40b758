import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { evalRun, type EvalRun } from '../../../src/schemas/eval';
import { main } from '../../../server/eval/cli';
import { startScriptedOpenAi } from '../../support/scriptedModels';
import { startTestServer, type TestServer } from '../harness';

// The CLI prints the figures the server's run shows, for the same seed and the same (scripted) models.

const SCRIPT = { p: 0.6, seed: 21, models: ['m1', 'm2'] };
const SETTINGS = { seed: 5, size: 24 };

describe('npm run eval', () => {
  let t: TestServer;
  let dir: string;
  beforeAll(async () => {
    t = await startTestServer();
    dir = await mkdtemp(path.join(tmpdir(), 'agora-eval-cli-'));
  });
  afterAll(async () => {
    await t.close();
    await rm(dir, { recursive: true, force: true });
  });

  async function cli(argv: string[], env: NodeJS.ProcessEnv) {
    const out: string[] = [];
    const err: string[] = [];
    const code = await main(argv, { out: (l) => out.push(l), err: (l) => err.push(l), env });
    return { code, out: out.join('\n'), err: err.join('\n') };
  }

  it('prints the same figures as the server for the same seed', async () => {
    const a = await startScriptedOpenAi(SCRIPT);
    const json = path.join(dir, 'run.json');
    const csv = path.join(dir, 'run.csv');
    const r = await cli(
      [
        '--models',
        'openai:m1,openai:m2',
        '--methods',
        'one_answer,round_table,sc',
        '--tasks',
        `arithmetic:${SETTINGS.size}`,
        '--seed',
        String(SETTINGS.seed),
        '--json',
        json,
        '--csv',
        csv,
      ],
      { OPENAI_BASE_URL: `${a.url}/v1`, OLLAMA_HOST: '', DATA_DIR: dir },
    );
    await a.close();
    expect(r.err).not.toContain('failed');
    expect(r.code).toBe(0);
    const fromCli = evalRun.parse(JSON.parse(await readFile(json, 'utf8')).run);
    // Each CSV row says what it measured: the run, the task set, its seed and the method's models.
    const [head, ...csvRows] = (await readFile(csv, 'utf8')).trim().split('\n');
    expect(head).toMatch(/^run_id,task_set,seed,method,models,done,total,correct,accuracy,ci_low,ci_high/);
    const cells = (l: string) => [...l.matchAll(/("(?:[^"]|"")*"|[^,]*)(,|$)/g)].map((m) => m[1].replace(/^"|"$/g, ''));
    const byMethod = Object.fromEntries(csvRows.map((l) => [cells(l)[3], cells(l)]));
    expect(byMethod.one_answer.slice(0, 5)).toEqual([
      'cli',
      fromCli.tasks.label,
      String(SETTINGS.seed),
      'one_answer',
      'openai:m1',
    ]);
    expect(byMethod.round_table[4]).toBe('openai:m1; openai:m2');

    const b = await startScriptedOpenAi(SCRIPT);
    const { token } = await t.register();
    const c = await t.api('POST', '/model-connections', {
      token,
      body: { kind: 'openai', name: 'Fake', base_url: `${b.url}/v1` },
    });
    const m = (name: string) => `@${c.body.id}/${name}`;
    const started = await t.api('POST', '/eval/runs', {
      token,
      body: {
        tasks: { kind: 'arithmetic', ...SETTINGS },
        models: [m('m1'), m('m2')],
        methods: ['one_answer', 'round_table', 'self_consistency'],
      },
    });
    expect(started.status).toBe(201);
    let run: EvalRun;
    for (;;) {
      run = evalRun.parse((await t.api('GET', `/eval/runs/${started.body.id}`, { token })).body);
      if (run.status !== 'running') break;
      await new Promise((res) => setTimeout(res, 50));
    }
    await b.close();
    expect(run.status).toBe('done');
    const figures = (x: EvalRun) =>
      x.results.map((res) => [
        res.method,
        res.correct,
        res.accuracy,
        res.ci_low,
        res.ci_high,
        res.tokens_per_question,
        res.k,
        res.first_vote,
      ]);
    expect(figures(fromCli)).toEqual(figures(run));
    // The printed table carries them too.
    for (const res of run.results) expect(r.out).toContain(`${(res.accuracy! * 100).toFixed(1)} %`);
  }, 60_000);

  it('prints its usage for --help and exits 0', async () => {
    for (const flag of ['--help', '-h']) {
      const r = await cli([flag], { OLLAMA_HOST: '' });
      expect(r.code).toBe(0);
      expect(r.out).toContain('Usage: npm run eval -- --models');
      expect(r.err).toBe('');
    }
  });

  it('says what is wrong with its arguments and with a bad task file', async () => {
    const missing = await cli(['--models', 'x'], { OLLAMA_HOST: '' });
    expect(missing.code).toBe(2);
    expect(missing.err).toContain('--models, --methods and --tasks are required');
    const file = path.join(dir, 'bad.jsonl');
    await writeFile(file, '{"question": "1+1?", "answer": "2"}\nnot json\n{"answer": "3"}\n');
    const bad = await cli(['--models', 'openai:m1', '--methods', 'one', '--tasks', `file:${file}`], {
      OLLAMA_HOST: '',
    });
    expect(bad.code).toBe(2);
    expect(bad.err).toContain('line 2: not valid JSON');
    expect(bad.err).toContain('line 3: "question" is missing');
    const method = await cli(['--models', 'openai:m1', '--methods', 'vibes', '--tasks', 'reasoning'], {
      OLLAMA_HOST: '',
    });
    expect(method.code).toBe(2);
    expect(method.err).toContain('methods.0');
    // The demo model writes prose; it cannot answer questions, so it is refused before anything runs.
    const demo = await cli(['--models', 'offline', '--methods', 'one', '--tasks', 'reasoning'], { OLLAMA_HOST: '' });
    expect(demo.code).toBe(2);
    expect(demo.err).toContain('The offline demo model cannot answer questions');
  });
});
