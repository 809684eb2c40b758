#!/usr/bin/env node
// `npm run test:e2e [filter…]`: build if needed, start the app the way the README does (node scripts/start.mjs)
// on a free loopback port with a fresh data directory, wait for /health, run tests/e2e in Chromium, and
// always tear the server down.
import { spawn } from 'node:child_process';
import { createWriteStream, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { buildIfNeeded, localBin, ROOT } from './lib/build.mjs';
import { waitForHealth } from './lib/health.mjs';
import { exited, freePort, stopProcess } from './lib/proc.mjs';

const HOST = '127.0.0.1';
const LOG = path.join(ROOT, 'test-results', 'e2e-server.log');

function tail(file, lines = 40) {
  try {
    return readFileSync(file, 'utf8').trimEnd().split('\n').slice(-lines).join('\n');
  } catch {
    return '(no server log)';
  }
}

let server;
let dataDir;
let code = 1;
const teardown = async () => {
  // SIGTERM reaches the server (start.mjs runs it in its own process) and it closes cleanly; its process group is
  // killed if it hangs.
  await stopProcess(server, { onForce: () => console.error('[e2e] the server did not stop within 10 s; killing it') });
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
};
for (const sig of ['SIGINT', 'SIGTERM']) {
  process.once(sig, () => {
    teardown().finally(() => process.exit(130));
  });
}

try {
  console.log('── e2e: build ──');
  await buildIfNeeded();

  const port = await freePort(HOST);
  dataDir = mkdtempSync(path.join(tmpdir(), 'agora-e2e-'));
  mkdirSync(path.dirname(LOG), { recursive: true });
  const log = createWriteStream(LOG);
  const base = `http://${HOST}:${port}`;
  console.log(`── e2e: start the app on ${base} (data in ${dataDir}, log in ${path.relative(ROOT, LOG)}) ──`);

  // The offline model streams at twice a person's pace: slow enough to press Stop or cut a connection
  // mid-discussion, quick enough for a short suite.
  const env = {
    ...process.env,
    PORT: String(port),
    HOST,
    DATA_DIR: dataDir,
    OFFLINE_MODEL_TOKENS_PER_SECOND: process.env.OFFLINE_MODEL_TOKENS_PER_SECOND ?? '60',
  };
  // A fresh, random signing secret per run lives in the temporary data directory.
  delete env.JWT_SECRET;
  delete env.DATABASE_URL;
  delete env.MEDIA_DIR;
  delete env.STATIC_DIR;
  // Its own process group, so a server that ignores SIGTERM can still be killed with everything it started.
  server = spawn(process.execPath, [path.join(ROOT, 'scripts', 'start.mjs')], {
    cwd: ROOT,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: process.platform !== 'win32',
  });
  server.stdout.pipe(log);
  server.stderr.pipe(log);

  const t0 = Date.now();
  try {
    await waitForHealth(base, { timeoutMs: 120_000, accept: [200], alive: () => !exited(server) });
  } catch (e) {
    console.error(`[e2e] ${e.message}\n── server log (last lines) ──\n${tail(LOG)}`);
    throw e;
  }
  console.log(`   healthy after ${Date.now() - t0} ms`);

  console.log('── e2e: run tests/e2e in Chromium ──');
  const runner = spawn(process.execPath, [localBin('tsx'), 'tests/e2e/run.ts', ...process.argv.slice(2)], {
    cwd: ROOT,
    env: { ...process.env, E2E_BASE_URL: base },
    stdio: 'inherit',
  });
  code = await new Promise((resolve) => runner.on('exit', (c, s) => resolve(c ?? (s ? 1 : 0))));
  if (code !== 0) console.log(`\n── server log (last lines) ──\n${tail(LOG)}`);
} catch (e) {
  console.error(`[e2e] ${e?.message ?? e}`);
  code = 1;
} finally {
  await teardown();
}
process.exit(code);
