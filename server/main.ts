import './tickShape'; // first: see there
import { setFlagsFromString } from 'node:v8';
import { buildServer } from './app';
import { startupTimer } from './startupTimer';

// `npm start` / `npm run server`: one process serving the SPA and the whole API on PORT (8000).
const timer = startupTimer();
timer.mark('modules');
// Node 20's V8 optimises a wasm function after ~1.8 MB of its execution, so PGlite's one-off start-up code was
// being optimised on both cores while the server started; Node 22 and later wait for 13 MB, as this asks of all.
setFlagsFromString('--wasm-tiering-budget=13000000');
// While nothing else is pending, Node waits for all of V8's background work before its event loop goes on, and
// opening PGlite leaves plenty (compiling and optimising its wasm): the first file read after it then took
// ~100 ms. A timer held until the server listens keeps the loop from ever being empty during the start.
const starting = setInterval(() => {}, 60_000);
const server = await buildServer({}, { timer }).finally(() => clearInterval(starting));
try {
  const url = await server.listen();
  timer.mark('listen');
  const { config, db } = server.ctx;
  server.app.log.info(
    `Agora listening on ${url} (database: ${db.kind}${db.kind === 'pglite' ? ` in ${config.dataDir}` : ''}); ${timer.line()}`,
  );
} catch (err) {
  server.app.log.error(err);
  process.exit(1);
}

// The first signal starts a graceful close (discussions end and store their frames, PGlite flushes); later
// signals — a terminal and npm can both deliver one Ctrl+C — are ignored rather than cutting it short.
// A close that hangs still ends after SHUTDOWN_LIMIT_MS.
const SHUTDOWN_LIMIT_MS = 15_000;
let closing = false;
for (const sig of ['SIGINT', 'SIGTERM'] as const) {
  process.on(sig, () => {
    if (closing) return;
    closing = true;
    setTimeout(() => process.exit(1), SHUTDOWN_LIMIT_MS).unref();
    server.close().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  });
}
