// `npm run bench [name…]` runs every bench/<name>.bench.ts (or the named ones), each in its own process so
// one bench's memory and warm caches do not colour the next, prints their figures, and records them in
// bench/results/latest.json (gitignored). A bench module default-exports `run(): Promise<Figures>`.
// Figures only: budgets are compared by reading them, never asserted in the test suite.
//
// `npm run bench -- <name…> --vs <commit> [--pairs N]` measures the named benches against an older commit in the
// same run: that commit's sources are extracted to a temp directory (git archive; node_modules hard-linked, this
// tree's bench/ laid over its own so both sides are measured by the same code, each browser bench's page excepted),
// and the two run alternately, N pairs (3 by default), each side first in every other pair, so the machine's load
// falls on both alike. Medians of each side and their ratio (this tree ÷ the commit) are printed and recorded.
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { localBin } from '../scripts/lib/build.mjs';
import { type Verdict, VS_BUDGETS, verdictLines, verdicts } from './budgets';

export type Figures = Record<string, number | string>;

const HERE = path.dirname(fileURLToPath(import.meta.url));
const ROOT = path.resolve(HERE, '..');
const RESULTS = path.join(HERE, 'results', 'latest.json');

const benchName = (file: string) => path.basename(file, '.bench.ts');

/** Child mode: run one bench module and write its figures as JSON. */
async function child(file: string, out: string) {
  const mod = (await import(pathToFileURL(file).href)) as { default?: () => Promise<Figures> };
  if (typeof mod.default !== 'function') throw new Error(`${path.relative(ROOT, file)} has no default export run()`);
  writeFileSync(out, JSON.stringify(await mod.default()));
  process.exit(0); // a bench may leave sockets or timers behind; its figures are written
}

function runInChild(file: string, cwd = ROOT): Promise<Figures> {
  const out = path.join(os.tmpdir(), `agora-bench-${process.pid}-${benchName(file)}.json`);
  rmSync(out, { force: true });
  return new Promise((resolve, reject) => {
    const proc = spawn(process.execPath, [localBin('tsx'), fileURLToPath(import.meta.url), '--child', file, out], {
      cwd,
      stdio: 'inherit',
    });
    proc.on('error', reject);
    proc.on('exit', (code, signal) => {
      if (code !== 0 || !existsSync(out))
        return reject(new Error(`${benchName(file)} failed (${signal ?? `exit code ${code}`})`));
      const figures = JSON.parse(readFileSync(out, 'utf8')) as Figures;
      rmSync(out, { force: true });
      resolve(figures);
    });
  });
}

function print(name: string, figures: Figures): Verdict[] {
  console.log(`\n── ${name} ──`);
  const width = Math.max(...Object.keys(figures).map((k) => k.length), 10);
  for (const [k, v] of Object.entries(figures)) console.log(`  ${k.padEnd(width)}  ${v}`);
  const list = verdicts(name, figures);
  if (list.length > 0)
    console.log(`\n  Budgets (ratios to a floor measured in the same run):\n${verdictLines(list).join('\n')}`);
  return list;
}

/** The sources of `commit` in a temp directory, with this tree's node_modules hard-linked and its bench/ laid over. */
function treeAt(commit: string): { root: string; sha: string } {
  const sha = execFileSync('git', ['rev-parse', '--verify', `${commit}^{commit}`], {
    cwd: ROOT,
    encoding: 'utf8',
  }).trim();
  const root = path.join(os.tmpdir(), `agora-bench-vs-${sha.slice(0, 12)}`);
  if (!existsSync(path.join(root, '.ready'))) {
    rmSync(root, { recursive: true, force: true });
    mkdirSync(root, { recursive: true });
    console.log(`Extracting ${sha.slice(0, 12)} to ${root} (node_modules hard-linked)…`);
    execFileSync('sh', ['-c', `git archive ${sha} | tar -x -C "${root}"`], { cwd: ROOT, stdio: 'inherit' });
    execFileSync('cp', ['-al', path.join(ROOT, 'node_modules'), path.join(root, 'node_modules')]);
    writeFileSync(path.join(root, '.ready'), `${sha}\n`);
  }
  // This tree's bench code, so both sides are measured alike (re-laid each run: the bench may have changed).
  rmSync(path.join(root, 'bench'), { recursive: true, force: true });
  execFileSync('cp', ['-r', HERE, path.join(root, 'bench')]);
  rmSync(path.join(root, 'bench', 'results'), { recursive: true, force: true });
  // Each browser bench's page (a folder with an index.html, built from that tree's src/) stays the commit's own: it
  // imports the tree's charts and views, whose files and events get renamed (this tree's hybridReplay page did not
  // build on 7523411); the drivers reach a page only through its window API, which both sides keep.
  const dirs = execFileSync('git', ['ls-tree', '-d', '--name-only', `${sha}:bench`], { cwd: ROOT, encoding: 'utf8' });
  for (const dir of dirs.split('\n').filter((d) => d && d !== 'lib' && d !== 'results')) {
    if (spawnSync('git', ['cat-file', '-e', `${sha}:bench/${dir}/index.html`], { cwd: ROOT }).status !== 0) continue;
    rmSync(path.join(root, 'bench', dir), { recursive: true, force: true });
    execFileSync('sh', ['-c', `git archive ${sha} bench/${dir} | tar -x -C "${root}"`], {
      cwd: ROOT,
      stdio: 'inherit',
    });
  }
  return { root, sha };
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = Math.floor(s.length / 2);
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
};
const r2 = (x: number) => Math.round(x * 100) / 100;

/** Medians of the numeric figures over runs; other figures as the last run gave them. */
function medians(runs: Figures[]): Figures {
  const out: Figures = {};
  for (const key of Object.keys(runs[runs.length - 1]!)) {
    const values = runs.map((r) => r[key]);
    out[key] = values.every((v) => typeof v === 'number')
      ? r2(median(values as number[]))
      : runs[runs.length - 1]![key]!;
  }
  return out;
}

/** Runs one bench here and at `vs`, alternately, `pairs` times; medians of each side and their ratios. */
async function paired(file: string, vs: { root: string; sha: string }, pairs: number) {
  const name = benchName(file);
  const other = path.join(vs.root, 'bench', path.basename(file));
  const here: Figures[] = [];
  const there: Figures[] = [];
  for (let i = 0; i < pairs; i++) {
    const order = i % 2 === 0 ? (['here', 'there'] as const) : (['there', 'here'] as const);
    for (const side of order) {
      console.log(`\n▶ ${name} (${side === 'here' ? 'this tree' : vs.sha.slice(0, 12)}, pair ${i + 1} of ${pairs})`);
      if (side === 'here') here.push(await runInChild(file));
      else there.push(await runInChild(other, vs.root));
    }
  }
  const mine = medians(here);
  const theirs = medians(there);
  const ratios: Figures = {};
  for (const [k, v] of Object.entries(mine)) {
    const w = theirs[k];
    if (typeof v === 'number' && typeof w === 'number' && w !== 0) ratios[k] = r2(v / w);
  }
  return { mine, theirs, ratios };
}

function printPaired(name: string, sha: string, p: Awaited<ReturnType<typeof paired>>): Verdict[] {
  console.log(`\n── ${name}: this tree | ${sha.slice(0, 12)} | this ÷ that (medians) ──`);
  const width = Math.max(...Object.keys(p.mine).map((k) => k.length), 10);
  for (const [k, v] of Object.entries(p.mine)) {
    if (typeof v !== 'number') continue;
    console.log(
      `  ${k.padEnd(width)}  ${String(v).padStart(10)} | ${String(p.theirs[k] ?? '—').padStart(10)} | ${p.ratios[k] ?? '—'}×`,
    );
  }
  // The paired budgets read the ratios; the others this tree's medians, with the ratio's figures beside.
  const vs = verdicts(name, p.ratios, VS_BUDGETS).map((v) => ({
    ...v,
    beside: Object.fromEntries(Object.keys(v.beside).map((k) => [k, `${p.mine[k]} vs ${p.theirs[k]}`])),
  }));
  const list = [...vs, ...verdicts(name, p.mine)];
  if (list.length > 0) console.log(`\n  Budgets:\n${verdictLines(list).join('\n')}`);
  return list;
}

async function main() {
  const args = process.argv.slice(2);
  const flag = (name: string) => {
    const at = args.indexOf(name);
    if (at < 0) return undefined;
    const value = args[at + 1];
    if (!value) throw new Error(`${name} needs a value`);
    args.splice(at, 2);
    return value;
  };
  const vsCommit = flag('--vs');
  const pairs = Number(flag('--pairs') ?? 3);
  const wanted = args;
  const all = readdirSync(HERE)
    .filter((f) => f.endsWith('.bench.ts'))
    .sort()
    .map((f) => path.join(HERE, f));
  const unknown = wanted.filter((w) => !all.some((f) => benchName(f) === w));
  if (unknown.length > 0) {
    console.error(`No such bench: ${unknown.join(', ')}. Available: ${all.map(benchName).join(', ')}`);
    process.exit(2);
  }
  const chosen = wanted.length === 0 ? all : all.filter((f) => wanted.includes(benchName(f)));

  // Earlier figures of benches not run this time stay in the file, each with its own date.
  const previous = existsSync(RESULTS)
    ? (JSON.parse(readFileSync(RESULTS, 'utf8')) as { benches?: Record<string, unknown> })
    : {};
  const benches: Record<string, unknown> = { ...(previous.benches ?? {}) };
  let failed = 0;
  if (vsCommit) {
    if (wanted.length === 0) throw new Error('--vs needs the benches to pair by name');
    const vs = treeAt(vsCommit);
    for (const file of chosen) {
      const name = benchName(file);
      try {
        const t0 = Date.now();
        const p = await paired(file, vs, pairs);
        const budgets = printPaired(name, vs.sha, p);
        benches[name] = {
          budgets,
          at: new Date().toISOString(),
          seconds: Math.round((Date.now() - t0) / 100) / 10,
          figures: p.mine,
          vs: { commit: vs.sha, pairs, figures: p.theirs, ratios: p.ratios },
        };
      } catch (e) {
        failed++;
        console.error(`✗ ${(e as Error).message}`);
      }
    }
  }
  for (const file of vsCommit ? [] : chosen) {
    const name = benchName(file);
    console.log(`\n▶ ${name}`);
    const t0 = Date.now();
    try {
      const figures = await runInChild(file);
      const budgets = print(name, figures);
      benches[name] = {
        at: new Date().toISOString(),
        seconds: Math.round((Date.now() - t0) / 100) / 10,
        figures,
        budgets,
      };
    } catch (e) {
      failed++;
      console.error(`✗ ${(e as Error).message}`);
    }
  }

  mkdirSync(path.dirname(RESULTS), { recursive: true });
  const machine = {
    node: process.version,
    platform: `${os.platform()} ${os.arch()}`,
    cpus: os.cpus().length,
    cpu: os.cpus()[0]?.model ?? 'unknown',
  };
  writeFileSync(RESULTS, `${JSON.stringify({ machine, benches }, null, 2)}\n`);
  console.log(`\nFigures written to ${path.relative(ROOT, RESULTS)}`);
  if (failed > 0) process.exit(1);
}

if (process.argv[2] === '--child') await child(process.argv[3]!, process.argv[4]!);
else await main();
