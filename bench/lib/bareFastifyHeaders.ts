// A second floor for the /health throughput: the bare Fastify app of bare-fastify.mjs sending the server's eleven
// security headers through the server's own response class (server/http/security.ts), and nothing else of it. What
// Agora does beyond that floor is its own; the floor's distance to bare Fastify is what the headers cost node.
// Bundled by server.bench.ts (esbuild) and run as a plain module, like the server.
import Fastify from 'fastify';
import { secureServerFactory } from '../../server/http/security';

const app = Fastify({ logger: false, serverFactory: secureServerFactory() });
app.get('/health', async () => ({ status: 'healthy' }));
await app.listen({ port: Number(process.env.PORT), host: process.env.HOST ?? '127.0.0.1' });
for (const sig of ['SIGINT', 'SIGTERM'] as const) process.once(sig, () => app.close().then(() => process.exit(0)));
