// CI's size gate (bench/bundleGate.ts, run in .ci/run after the build): it counts what index.html loads at start
// and everything that imports statically, not lazy chunks, and fails a build whose sign-in JavaScript passes the
// budget.
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { LOGIN_JS_BUDGET_KB, measureLoginJs } from '../../bench/bundle.bench';

const ROOT = path.resolve(import.meta.dirname, '..', '..');
const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

/** Random bytes in base64 compress back to about their own size: `kb` KB gzipped. */
const filler = (kb: number) => `export const filler = ${JSON.stringify(randomBytes(kb * 1024).toString('base64'))};\n`;

/** A dist/ whose entry imports `shared.js` statically (`sharedKb` of filler) and `lazy.js` (80 KB) lazily. */
function fakeDist(sharedKb: number): string {
  const dist = mkdtempSync(path.join(os.tmpdir(), 'agora-gate-'));
  dirs.push(dist);
  mkdirSync(path.join(dist, 'assets'));
  writeFileSync(
    path.join(dist, 'index.html'),
    '<script type="module" crossorigin src="/assets/index.js"></script>\n' +
      '<link rel="modulepreload" crossorigin href="/assets/preload.js">',
  );
  writeFileSync(
    path.join(dist, 'assets', 'index.js'),
    'import{a}from"./shared.js";const l=()=>import("./lazy.js");export{a,l};\n',
  );
  writeFileSync(path.join(dist, 'assets', 'preload.js'), filler(10));
  writeFileSync(path.join(dist, 'assets', 'shared.js'), filler(sharedKb));
  writeFileSync(path.join(dist, 'assets', 'lazy.js'), filler(80));
  return dist;
}

const gate = (dist: string) => {
  try {
    execFileSync(process.execPath, [path.join(ROOT, 'node_modules/tsx/dist/cli.mjs'), 'bench/bundleGate.ts', dist], {
      cwd: ROOT,
      stdio: 'pipe',
    });
    return 0;
  } catch (e) {
    return (e as { status: number }).status;
  }
};

describe('the sign-in bundle gate', () => {
  it('counts the entry, its modulepreloads and their static imports, not lazy chunks', () => {
    const login = measureLoginJs(fakeDist(50));
    expect(login.chunks.map((c) => c.file)).toEqual(['assets/index.js', 'assets/preload.js', 'assets/shared.js']);
    expect(login.gzipKb).toBeGreaterThan(58);
    expect(login.gzipKb).toBeLessThan(75);
    expect(login.withinBudget).toBe(true);
  });

  it('passes a build within the budget and fails one that passes it', () => {
    expect(gate(fakeDist(LOGIN_JS_BUDGET_KB - 30))).toBe(0);
    expect(gate(fakeDist(LOGIN_JS_BUDGET_KB))).toBe(1);
  }, 60_000);
});
