import { spawn } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** The repository root (scripts/lib/../..), so every script works from any working directory. */
export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');

const require = createRequire(path.join(ROOT, 'package.json'));

/** Absolute path of a locally installed package's bin script, run with this very node (no shell, no .cmd shims). */
export function localBin(pkg, name = pkg) {
  const manifestPath = require.resolve(`${pkg}/package.json`);
  const { bin } = require(manifestPath);
  const rel = typeof bin === 'string' ? bin : bin[name];
  return path.join(path.dirname(manifestPath), rel);
}

// What the SPA bundle is made of: a change to any of these makes dist/ stale.
const BUILD_INPUTS = ['src', 'index.html', 'vite.config.ts', 'public'];

function newestMtime(p) {
  let st;
  try {
    st = statSync(p);
  } catch {
    return 0;
  }
  if (!st.isDirectory()) return st.mtimeMs;
  let newest = st.mtimeMs; // a deleted file only shows as its directory's mtime
  for (const entry of readdirSync(p)) newest = Math.max(newest, newestMtime(path.join(p, entry)));
  return newest;
}

/** Why dist/ must be (re)built, or null when it is up to date. A plain mtime walk: a few ms for src/. */
export function buildReason(root = ROOT) {
  const stamp = path.join(root, 'dist', 'index.html');
  if (!existsSync(stamp)) return 'dist/ is missing';
  const built = statSync(stamp).mtimeMs;
  for (const input of BUILD_INPUTS) {
    if (newestMtime(path.join(root, input)) > built) return `${input} changed since the last build`;
  }
  return null;
}

/** Runs `vite build` with inherited output; rejects when it fails. */
export function runBuild({ quiet = false } = {}) {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [localBin('vite'), 'build'], {
      cwd: ROOT,
      stdio: quiet ? ['ignore', 'ignore', 'inherit'] : 'inherit',
      env: { ...process.env, NODE_ENV: 'production' },
    });
    child.on('error', reject);
    child.on('exit', (code, signal) => {
      if (code === 0) resolve();
      else reject(new Error(`vite build failed (${signal ?? `exit code ${code}`})`));
    });
  });
}

/** Builds only when buildReason() says so. Resolves with the reason it built, or null. */
export async function buildIfNeeded(opts = {}) {
  const reason = buildReason();
  if (reason) {
    if (!opts.quiet) console.log(`[agora] building the SPA: ${reason}`);
    await runBuild(opts);
  }
  return reason;
}
