import { readFile, writeFile } from 'node:fs/promises';
import { EVAL_METHODS, evalRunCreate, type EvalMethod, type EvalRun, type EvalTaskSpec } from '../../src/schemas/eval';
import { evalCsv, evalJson, evalTable } from '../../src/shared/evalExport';
import { loadConfig } from '../config';
import { createLlms } from '../providers';
import type { LlmRegistry } from '../providers/types';
import { makeCaller, registryResolver } from './caller';
import { plannedMethods, plannedVariants, runEvaluation, type RunStore } from './runner';
import { etaSeconds, runResults, sumRows, type ResultRow } from './summary';
import { buildTasks, TaskSetError } from './tasks';

// `npm run eval -- --models a,b,c --methods one_answer,self_consistency,round_table --tasks arithmetic:100`
// The same harness as the server's Evaluate dialog, on the server's model providers (OLLAMA_HOST,
// OPENAI_BASE_URL; names as the agents' editor writes them, 'ollama:<model>' or 'openai:<model>'), printing the
// same figures for the same seed. --csv and --json write the export files.

const USAGE = `Usage: npm run eval -- --models <m1,m2,…> --methods <${EVAL_METHODS.join(',')}>
  --tasks <arithmetic:N | reasoning[:N] | file:path.jsonl>
  [--seed 0] [--rounds 2] [--samples 5] [--equal-tokens on|off] [--single <model>] [--judge <model>]
  [--max-tokens 512] [--temperature 0.7] [--budget <tokens>] [--parallel 4] [--csv out.csv] [--json out.json]
  [--with-tools <methods asked again with the calculator>]`;

const ALIASES: Record<string, EvalMethod> = {
  one: 'one_answer',
  cot: 'chain_of_thought',
  sc: 'self_consistency',
  roundtable: 'round_table',
};

export interface CliIo {
  out: (line: string) => void;
  err: (line: string) => void;
  env: NodeJS.ProcessEnv;
  /** For tests: the providers to use instead of the environment's. */
  registry?: LlmRegistry;
}

/** Flags that take no value. */
const SWITCHES = new Set(['help']);

function parseArgs(argv: string[]): Map<string, string> {
  const args = new Map<string, string>();
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === '-h' || (a.startsWith('--') && SWITCHES.has(a.slice(2)))) {
      args.set('help', '');
      continue;
    }
    if (!a.startsWith('--')) throw new Error(`Unexpected argument "${a}"`);
    const [key, inline] = a.slice(2).split('=', 2);
    const value = inline ?? argv[++i];
    if (value === undefined) throw new Error(`--${key} needs a value`);
    args.set(key, value);
  }
  return args;
}

async function taskSpec(text: string, seed: number): Promise<EvalTaskSpec> {
  const [kind, rest] = [text.split(':')[0], text.slice(text.indexOf(':') + 1)];
  if (kind === 'arithmetic') return { kind, seed, size: Number(rest) || 100 };
  if (kind === 'reasoning') return { kind, ...(text.includes(':') ? { size: Number(rest) } : {}) };
  if (kind === 'file') return { kind, name: rest, jsonl: await readFile(rest, 'utf8') };
  throw new Error(`--tasks must be arithmetic:N, reasoning[:N] or file:path.jsonl, not "${text}"`);
}

export async function main(argv: string[], io: CliIo): Promise<number> {
  let args: Map<string, string>;
  try {
    args = parseArgs(argv);
    if (args.has('help')) {
      io.out(USAGE);
      return 0;
    }
    if (!args.has('models') || !args.has('methods') || !args.has('tasks'))
      throw new Error('--models, --methods and --tasks are required');
  } catch (e) {
    io.err(`${(e as Error).message}\n${USAGE}`);
    return 2;
  }
  const num = (k: string) => (args.has(k) ? Number(args.get(k)) : undefined);
  const config = loadConfig(io.env);
  const seed = num('seed') ?? 0;
  const parsed = evalRunCreate.safeParse({
    tasks: await taskSpec(args.get('tasks')!, seed).catch((e: Error) => ({ kind: 'bad', why: e.message })),
    models: args
      .get('models')!
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean),
    methods: args
      .get('methods')!
      .split(',')
      .map((s) => ALIASES[s.trim()] ?? s.trim().replace(/-/g, '_')),
    with_tools: args.has('with-tools')
      ? args
          .get('with-tools')!
          .split(',')
          .map((m) => ALIASES[m.trim()] ?? m.trim().replace(/-/g, '_'))
      : undefined,
    single_model: args.get('single'),
    judge_model: args.get('judge'),
    rounds: num('rounds'),
    samples: num('samples'),
    equal_tokens: args.has('equal-tokens') ? !/^(off|false|no|0)$/i.test(args.get('equal-tokens')!) : undefined,
    budget_tokens: num('budget'),
    max_tokens_per_call: num('max-tokens'),
    temperature: num('temperature'),
  });
  if (!parsed.success) {
    io.err(`${parsed.error.issues.map((i) => `${i.path.join('.') || 'settings'}: ${i.message}`).join('\n')}\n${USAGE}`);
    return 2;
  }
  const s = parsed.data;
  let built;
  try {
    built = buildTasks(s.tasks, config.evalMaxQuestions);
  } catch (e) {
    if (e instanceof TaskSetError) {
      io.err(
        [
          'The task set cannot be used:',
          ...e.errors.map((x) => (x.line ? `  line ${x.line}: ${x.message}` : `  ${x.message}`)),
        ].join('\n'),
      );
      return 2;
    }
    throw e;
  }
  const settings = { ...s, single: s.single_model ?? s.models[0], judge: s.judge_model ?? s.models[0] };
  const abort = new AbortController();
  const registry = io.registry ?? createLlms(config);
  const caller = await makeCaller(registryResolver(registry), [...s.models, settings.single, settings.judge], {
    maxTokens: s.max_tokens_per_call,
    temperature: s.temperature,
    signal: abort.signal,
  });
  const rows: ResultRow[] = [];
  let k: number | null = null;
  const store: RunStore = {
    rows: async () => [...rows],
    save: async (r) => void rows.push(r),
    saveK: async (x) => void (k = x),
  };
  const methods = plannedVariants(s);
  const total = built.items.length;
  io.out(
    [
      `${built.label}`,
      `models ${s.models.join(', ')}`,
      `methods ${methods.join(', ')}`,
      ...(s.equal_tokens ? ['equal tokens'] : []),
    ].join('; '),
  );
  let lastReport = 0;
  const end = await runEvaluation(
    { items: built.items, settings, k: null },
    {
      caller,
      store,
      signal: abort.signal,
      parallel: num('parallel') ?? config.evalParallelQuestions,
      onProgress: () => {
        if (Date.now() - lastReport < 2_000) return;
        lastReport = Date.now();
        const results = runResults(methods, total, sumRows(rows), k);
        const eta = etaSeconds(results, num('parallel') ?? config.evalParallelQuestions);
        const tokens = results.reduce((a, r) => a + r.tokens, 0);
        const left = eta === null ? '' : `, about ${eta} s left`;
        io.err(`  ${rows.length}/${total * methods.length} answered, ${tokens} tokens${left}`);
      },
    },
  );
  const results = runResults(methods, total, sumRows(rows), k);
  const run: EvalRun = {
    id: 'cli',
    name: built.label,
    created_at: new Date().toISOString(),
    status: end.status,
    detail: end.detail,
    tasks: { kind: s.tasks.kind, label: built.label, ...(s.tasks.kind === 'arithmetic' ? { seed: s.tasks.seed } : {}) },
    question_count: total,
    models: s.models,
    single_model: settings.single,
    judge_model: settings.judge,
    methods: plannedMethods(s),
    ...(s.with_tools.length ? { with_tools: s.with_tools } : {}),
    rounds: s.rounds,
    equal_tokens: s.equal_tokens,
    budget_tokens: s.budget_tokens ?? null,
    tokens_used: results.reduce((a, r) => a + r.tokens, 0),
    eta_seconds: null,
    results,
  };
  io.out(evalTable(run));
  if (end.detail) io.err(end.detail);
  if (args.has('csv')) await writeFile(args.get('csv')!, evalCsv(run));
  if (args.has('json')) await writeFile(args.get('json')!, evalJson(run));
  return end.status === 'done' ? 0 : 1;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  main(process.argv.slice(2), { out: (l) => console.log(l), err: (l) => console.error(l), env: process.env }).then(
    (code) => process.exit(code),
    (e) => {
      console.error((e as Error).message);
      process.exit(1);
    },
  );
}
