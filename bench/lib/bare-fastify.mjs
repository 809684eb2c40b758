// The baseline for the /health throughput figure: a bare Fastify 5 app with one /health route, no plugins,
// no logger. Listens on PORT/HOST like the real server.
import Fastify from 'fastify';

const app = Fastify({ logger: false });
app.get('/health', async () => ({ status: 'healthy' }));
await app.listen({ port: Number(process.env.PORT), host: process.env.HOST ?? '127.0.0.1' });
for (const sig of ['SIGINT', 'SIGTERM']) process.once(sig, () => app.close().then(() => process.exit(0)));
