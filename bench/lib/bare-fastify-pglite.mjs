// The baseline for the cold start with existing data: a bare Fastify 5 app that opens the same PGlite data
// directory as the real server (DATA_DIR/pgdata, the same start options) and answers /health once a query has
// run. What a start costs beyond this is Agora's own (its modules, migrations check, routes).
import { PGlite } from '@electric-sql/pglite';
import Fastify from 'fastify';

const db = await PGlite.create(`${process.env.DATA_DIR}/pgdata`, {
  startParams: [...PGlite.defaultStartParams, '-c', 'shared_buffers=32MB'],
});
await db.query('select 1');
const app = Fastify({ logger: false });
app.get('/health', async () => ({ status: 'healthy' }));
await app.listen({ port: Number(process.env.PORT), host: process.env.HOST ?? '127.0.0.1' });
for (const sig of ['SIGINT', 'SIGTERM'])
  process.once(sig, () =>
    app
      .close()
      .then(() => db.close())
      .then(() => process.exit(0)),
  );
