#!/usr/bin/env node
// `npm run screens`: build if needed, start the app on a free loopback port with a fresh data directory, and
// capture every screen at 1440×900 and 1024×700 into docs/screens/*.png (scripts/screens-capture.ts drives
// Chromium). Add `-- --axe` to print axe-core's findings for each screen as well.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { buildIfNeeded, localBin, ROOT } from './lib/build.mjs';
import { waitForHealth } from './lib/health.mjs';
import { exited, freePort, stopProcess } from './lib/proc.mjs';

const HOST = '127.0.0.1';
let server;
let dataDir;
let code = 1;
try {
  await buildIfNeeded();
  const port = await freePort(HOST);
  dataDir = mkdtempSync(path.join(tmpdir(), 'agora-screens-'));
  const env = { ...process.env, PORT: String(port), HOST, DATA_DIR: dataDir, OFFLINE_MODEL_TOKENS_PER_SECOND: '0' };
  for (const k of ['JWT_SECRET', 'DATABASE_URL', 'MEDIA_DIR', 'STATIC_DIR']) delete env[k];
  server = spawn(process.execPath, [path.join(ROOT, 'scripts', 'start.mjs')], {
    cwd: ROOT,
    env,
    stdio: ['ignore', 'ignore', 'inherit'],
    detached: process.platform !== 'win32',
  });
  const base = `http://${HOST}:${port}`;
  await waitForHealth(base, { timeoutMs: 120_000, accept: [200], alive: () => !exited(server) });
  const capture = spawn(process.execPath, [localBin('tsx'), 'scripts/screens-capture.ts', ...process.argv.slice(2)], {
    cwd: ROOT,
    env: { ...process.env, SCREENS_BASE_URL: base },
    stdio: 'inherit',
  });
  code = await new Promise((resolve) => capture.on('exit', (c, s) => resolve(c ?? (s ? 1 : 0))));
} catch (e) {
  console.error(`[screens] ${e?.message ?? e}`);
} finally {
  await stopProcess(server);
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
}
process.exit(code);
