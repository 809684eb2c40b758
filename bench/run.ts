// `npm run bench [name…]` runs every bench/<name>.bench.ts (or the named ones), each in its own process so
// one bench's memory and warm caches do not colour the next, prints their figures, and records them in
// bench/results/latest.json (gitignored). A bench module default-exports `run(): Promise<Figures>`.
// Figures only: budgets are compared by reading them, never asserted in the test suite.
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { localBin } from '../scripts/lib/build.mjs';

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

function runInChild(file: string): Promise<Figures> {
  const out = path.join(os.tmpdir(), `agora-bench-${process.pid}-${benchName(file)}.json`);
  rmSync(out, { force: true });
  return new Promise((resolve, reject) => {
    const proc = spawn(process.execPath, [localBin('tsx'), fileURLToPath(import.meta.url), '--child', file, out], {
      cwd: ROOT,
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

function print(name: string, figures: Figures) {
  console.log(`\n── ${name} ──`);
  const width = Math.max(...Object.keys(figures).map((k) => k.length), 10);
  for (const [k, v] of Object.entries(figures)) console.log(`  ${k.padEnd(width)}  ${v}`);
}

async function main() {
  const wanted = process.argv.slice(2);
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
  for (const file of chosen) {
    const name = benchName(file);
    console.log(`\n▶ ${name}`);
    const t0 = Date.now();
    try {
      const figures = await runInChild(file);
      print(name, figures);
      benches[name] = { at: new Date().toISOString(), seconds: Math.round((Date.now() - t0) / 100) / 10, figures };
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
