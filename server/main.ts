import { buildServer } from './app';
import { startupTimer } from './startupTimer';

// `npm start` / `npm run server`: one process serving the SPA and the whole API on PORT (8000).
const timer = startupTimer();
timer.mark('modules');
const server = await buildServer({}, { timer });
try {
  const url = await server.listen();
  timer.mark('listen');
  const { config, db } = server.ctx;
  server.app.log.info(`Agora listening on ${url} (database: ${db.kind}${db.kind === 'pglite' ? ` in ${config.dataDir}` : ''}); ${timer.line()}`);
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
    server.close().then(() => process.exit(0), () => process.exit(1));
  });
}
