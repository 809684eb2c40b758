import type { FastifyInstance } from 'fastify';
import { APP_VERSION } from '../../src/schemas/constants';
import type { Health } from '../../src/schemas/system';
import { timingSafeEqual } from 'node:crypto';
import { requestUser, requireUser } from '../auth/guard';
import { HttpError } from '../http/errors';
import type { ComponentStatus } from '../providers/types';
import { startHealthMonitor } from '../providers/healthMonitor';
import { serverStats, userStats } from './stats';

const LOOPBACK = new Set(['127.0.0.1', '::1', '::ffff:127.0.0.1']);

/** /health for the public: the overall status, the version and each component's status, nothing else. */
export const publicHealth = (h: Health): Health => ({
  status: h.status,
  version: h.version,
  components: Object.fromEntries(Object.entries(h.components).map(([k, v]) => [k, { status: (v as { status: string }).status }])) as Health['components'],
});

const sameSecret = (a: string, b: string) => {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
};

/** /health (public; GET, HEAD, OPTIONS), /models/, /monitor/stats, /debug/info. */
export async function systemRoutes(app: FastifyInstance) {
  const { ctx } = app;

  const probeDb = async (): Promise<ComponentStatus> => {
    try {
      await ctx.db.query('SELECT 1');
      return { status: 'ok', provider: ctx.db.kind };
    } catch (e) {
      return { status: 'unavailable', detail: (e as Error).message, provider: ctx.db.kind };
    }
  };

  // Provider probes may reach the network: they run in the background (providers/healthMonitor.ts), and every
  // reader below takes the last state.
  const HEALTH_REFRESH_MS = 2000;
  const computeHealth = async (): Promise<Health> => {
    const [database, llm, speech, transcription] = await Promise.all([
      probeDb(), ctx.providers.llm.probe(), ctx.providers.speech.probe(), ctx.providers.transcription.probe(),
    ]);
    // One working model (the offline one always works) is enough to be healthy; the llm detail names any engine that is down.
    const status = database.status !== 'ok' ? 'unhealthy' : llm.status === 'unavailable' ? 'degraded' : 'healthy';
    return { status, version: APP_VERSION, components: { database, llm, speech, transcription } };
  };
  const monitor = startHealthMonitor(computeHealth, HEALTH_REFRESH_MS);
  app.addHook('onClose', async () => monitor.stop());
  const health = () => monitor.current();

  // Provider addresses, binary paths and error texts are for a signed-in caller or one on this machine (req.ip
  // is the peer address unless TRUST_PROXY names a proxy, so a forwarded request is not 'loopback').
  // Each probed state is serialised once per audience, not once per request.
  const bodies = new WeakMap<Health, { detailed?: string; public?: string }>();
  const bodyOf = (h: Health, detailed: boolean) => {
    let b = bodies.get(h);
    if (!b) bodies.set(h, (b = {}));
    return detailed ? (b.detailed ??= JSON.stringify(h)) : (b.public ??= JSON.stringify(publicHealth(h)));
  };
  app.get('/health', async (req, reply) => {
    const h = await health();
    const detailed = LOOPBACK.has(req.ip) || (await requestUser(ctx, req)) !== null;
    return reply.status(h.status === 'unhealthy' ? 503 : 200).type('application/json; charset=utf-8').send(bodyOf(h, detailed));
  });

  // Server-wide figures: off (404) unless OPERATOR_TOKEN is set, then only for that bearer token.
  app.get('/monitor/server', async (req) => {
    const expected = ctx.config.operatorToken;
    if (!expected) throw new HttpError(404, 'The operator endpoint is off (set OPERATOR_TOKEN to turn it on).');
    const h = req.headers.authorization ?? '';
    const given = /^bearer /i.test(h) ? h.slice(7).trim() : '';
    if (!given || !sameSecret(given, expected)) throw new HttpError(401, 'The operator token is missing or wrong.');
    return { ...(await serverStats(ctx)), health: await health() };
  });
  app.options('/health', async (_req, reply) => reply.status(204).header('allow', 'GET, HEAD, OPTIONS').send());

  await app.register(async (authed) => {
    authed.addHook('onRequest', requireUser(ctx));

    authed.get('/models/', async () => ctx.providers.llm.listModels());
    authed.get('/models/available', async () => ({ models: await ctx.providers.llm.listModels() }));

    authed.get('/monitor/stats', async (req) => userStats(ctx, req.userId));

    authed.get('/debug/info', async () => {
      const h = await health();
      return {
        version: APP_VERSION,
        node: process.version,
        database: ctx.db.kind,
        providers: Object.fromEntries((['database', 'llm', 'speech', 'transcription'] as const).map((k) => {
          const v = h.components[k];
          return [k, `${v.status}${v.detail ? `: ${v.detail}` : ''}`];
        })),
        uptime_s: Math.round((Date.now() - ctx.startedAt) / 1000),
      };
    });
  });
}
