#!/usr/bin/env node
// `npm start`: build the SPA when dist/ is stale, then run the server (SPA + API on one origin).
import { spawn } from 'node:child_process';
import { constants } from 'node:os';
import { buildIfNeeded, ROOT, tsxLoader } from './lib/build.mjs';
import { probeUrl, publicUrl, waitForHealth } from './lib/health.mjs';
import { buildServerIfNeeded } from './lib/serverBundle.mjs';

const launchedAt = Date.now(); // the server's start-up line counts from here (server/startupTimer.ts)

const port = Number(process.env.PORT || 8000);
const host = process.env.HOST || '0.0.0.0';

// STATIC_DIR points the server at another bundle ('' serves the API only), so ./dist is not ours to build then.
try {
  if (process.env.STATIC_DIR === undefined) await buildIfNeeded();
} catch (e) {
  console.error(`[agora] ${e.message}`);
  process.exit(1);
}

// The server runs from its bundle (scripts/lib/serverBundle.mjs: one module instead of a few hundred through a
// loader); if the bundle cannot be made, from the sources with tsx's loader as before. Either way node itself
// rather than the tsx CLI: one process, so a signal reaches the server exactly once. (The CLI relays signals to
// its own child and kills it when it does not acknowledge within 30 ms — which a server busy closing its
// database cannot — cutting the graceful close short.)
const serverArgs = await buildServerIfNeeded().then(
  (bundle) => ['--enable-source-maps', bundle],
  (e) => {
    console.error(`[agora] could not bundle the server (${e.message}); running it from the sources`);
    return ['--import', tsxLoader(), 'server/main.ts'];
  },
);
const server = spawn(process.execPath, serverArgs, {
  cwd: ROOT,
  stdio: 'inherit',
  env: { ...process.env, AGORA_LAUNCHED_AT: String(launchedAt) },
});
const running = () => server.exitCode === null && server.signalCode === null;

server.on('error', (e) => {
  console.error(`[agora] could not start the server: ${e.message}`);
  process.exit(1);
});
server.on('exit', (code, signal) => {
  process.exit(code ?? 128 + (constants.signals[signal] ?? 0));
});
process.on('exit', () => {
  if (running()) server.kill('SIGTERM');
});

// A shutdown signal is passed on once. A Ctrl+C in a terminal already reaches the whole foreground process
// group (and npm forwards it again), so a second delivery would cut the server's graceful close short; only a
// signal that arrives well after the first is forwarded, as a deliberate "stop now".
let firstSignalAt = 0;
for (const sig of ['SIGINT', 'SIGTERM']) {
  process.on(sig, () => {
    const now = Date.now();
    if (firstSignalAt === 0) {
      firstSignalAt = now;
      const fromTerminal = sig === 'SIGINT' && process.stdin.isTTY;
      if (!fromTerminal) server.kill(sig);
      return;
    }
    if (now - firstSignalAt > 1500 && running()) server.kill(sig);
  });
}

try {
  await waitForHealth(probeUrl(host, port), { timeoutMs: 120_000, alive: running });
  const url = publicUrl(host, port);
  console.log(`\n  Agora is running at ${url}\n  (Ctrl+C stops it)\n`);
} catch (e) {
  if (running()) console.error(`[agora] ${e.message}`);
}
