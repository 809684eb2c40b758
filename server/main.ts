import { buildServer } from './app';

// `npm start` / `npm run server`: one process serving the SPA and the whole API on PORT (8000).
const server = await buildServer();
try {
  const url = await server.listen();
  const { config, db } = server.ctx;
  server.app.log.info(`Agora listening on ${url} (database: ${db.kind}${db.kind === 'pglite' ? ` in ${config.dataDir}` : ''})`);
} catch (err) {
  server.app.log.error(err);
  process.exit(1);
}

for (const sig of ['SIGINT', 'SIGTERM'] as const) {
  process.once(sig, () => {
    server.close().then(() => process.exit(0), () => process.exit(1));
  });
}
