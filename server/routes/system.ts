import type { FastifyInstance, FastifyReply } from 'fastify';
import { APP_VERSION } from '../../src/schemas/constants';
import { OPERATOR_ONLY } from '../../src/schemas/auth';
import { z } from 'zod';
import {
  debugInfo,
  health as healthSchema,
  modelsResponse,
  monitorStats,
  serverMonitor,
  type Health,
} from '../../src/schemas/system';
import type { ZodTypeProvider } from '../http/routeSchema';
import { timingSafeEqual } from 'node:crypto';
import { requireUser } from '../auth/guard';
import { requireOperator } from '../auth/operator';
import { HttpError } from '../http/errors';
import type { ComponentStatus } from '../providers/types';
import { pickerModels } from '../models/service';
import { startHealthMonitor } from '../providers/healthMonitor';
import { serverStats, userStats } from './stats';
import { requestsLogged } from '../config';
import { securityHeaders } from '../http/security';

const HEALTH_TYPE = 'application/json; charset=utf-8';

/** /health for the public: the overall status, the version and each component's status, nothing else. */
export const publicHealth = (h: Health): Health => ({
  status: h.status,
  version: h.version,
  components: Object.fromEntries(
    Object.entries(h.components).map(([k, v]) => [k, { status: (v as { status: string }).status }]),
  ) as Health['components'],
});

const sameSecret = (a: string, b: string) => {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
};

/** /health (public; GET, HEAD, OPTIONS), /models/, /monitor/stats, /debug/info. */
export async function systemRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const { ctx } = app;
  const tags = ['System'];

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
      probeDb(),
      ctx.providers.llm.probe(),
      ctx.providers.speech.probe(),
      ctx.providers.transcription.probe(),
    ]);
    // One working model (the offline one always works) is enough to be healthy; the llm detail names any engine that is down.
    const status = database.status !== 'ok' ? 'unhealthy' : llm.status === 'unavailable' ? 'degraded' : 'healthy';
    return { status, version: APP_VERSION, components: { database, llm, speech, transcription } };
  };
  const monitor = startHealthMonitor(computeHealth, HEALTH_REFRESH_MS);
  app.addHook('onClose', async () => monitor.stop());
  const health = () => monitor.current();

  // Provider addresses, binary paths, versions and error texts are the operator's: only the operator token sees
  // them here (a caller on this machine may be anyone behind a local proxy); everyone else gets the states.
  // Each probed state is serialised once per audience, not once per request, with the head of its early answer.
  // The early answer's head is whole (its security headers included), so the response class adds nothing to it.
  type Answer = { code: number; body: string; head: Record<string, string> };
  const answers = new WeakMap<Health, { detailed?: Answer; public?: Answer }>();
  const answerOf = (h: Health, authorization: string | undefined): Answer => {
    const detailed = isOperator(authorization);
    let a = answers.get(h);
    if (!a) answers.set(h, (a = {}));
    const make = (): Answer => {
      const body = JSON.stringify(detailed ? h : publicHealth(h));
      const head = {
        'content-type': HEALTH_TYPE,
        'content-length': String(Buffer.byteLength(body)),
        ...securityHeaders(),
      };
      return { code: h.status === 'unhealthy' ? 503 : 200, body, head };
    };
    return detailed ? (a.detailed ??= make()) : (a.public ??= make());
  };
  const healthSchema$ = {
    tags,
    summary: 'Whether the server works',
    security: [],
    description:
      "Public: the overall status, the version and each component's status. The operator token (OPERATOR_TOKEN) also gets each component's provider and detail. 503 when the database is down.",
    response: { 200: healthSchema, 503: healthSchema },
  };
  // Not an async handler: the state is already known after the first probe, and a promise per request shows in the
  // /health throughput (npm run bench server).
  app.get('/health', { schema: healthSchema$ }, (req, reply) => {
    // The body is already JSON (serialised once per state), so it goes out untyped, past the schema's serializer.
    const answer = (h: Health): void => {
      const { code, body } = answerOf(h, req.headers.authorization);
      void (reply as FastifyReply).status(code).type(HEALTH_TYPE).send(body);
    };
    const h = health();
    if (h instanceof Promise) return h.then(answer);
    answer(h);
  });
  // A plain GET /health, once the first probe is in, is answered before the router (http/earlyAnswers.ts): the same
  // answer, without the router's work. Not while every request is logged (LOG_LEVEL=debug or trace), so that the log
  // shows the probes too.
  if (!requestsLogged(ctx.config.logLevel)) {
    app.earlyAnswers.get('/health', (req, res) => {
      const h = health();
      if (h instanceof Promise) return false;
      const { code, body, head } = answerOf(h, req.headers.authorization);
      res.writeHead(code, head);
      res.end(body);
      return true;
    });
  }

  const isOperator = (authorization: string | undefined) => {
    const expected = ctx.config.operatorToken;
    const given = /^bearer /i.test(authorization ?? '') ? authorization!.slice(7).trim() : '';
    return !!expected && !!given && sameSecret(given, expected);
  };

  // Server-wide figures: off (404) unless OPERATOR_TOKEN is set, then only for that bearer token.
  const serverSchema = {
    tags,
    summary: 'Server-wide figures, for the operator',
    description: 'Off (404) unless OPERATOR_TOKEN is set; then only for that bearer token.',
    security: [{ operatorToken: [] }],
    response: { 200: serverMonitor },
    errors: { 401: 'The operator token is missing or wrong.', 404: 'The operator endpoint is off' },
  };
  app.get('/monitor/server', { schema: serverSchema }, async (req) => {
    const expected = ctx.config.operatorToken;
    if (!expected) throw new HttpError(404, 'The operator endpoint is off (set OPERATOR_TOKEN to turn it on).');
    const h = req.headers.authorization ?? '';
    const given = /^bearer /i.test(h) ? h.slice(7).trim() : '';
    if (!given || !sameSecret(given, expected)) throw new HttpError(401, 'The operator token is missing or wrong.');
    return { ...(await serverStats(ctx)), health: await health() };
  });
  app.options(
    '/health',
    { schema: { tags, summary: 'The methods /health answers', security: [], response: { 204: z.undefined() } } },
    async (_req, reply) => reply.status(204).header('allow', 'GET, HEAD, OPTIONS').send(),
  );

  await app.register(async (plugin) => {
    const authed = plugin.withTypeProvider<ZodTypeProvider>();
    authed.addHook('onRequest', requireUser(ctx));

    const modelsTags = ['Models'];
    // The user's models: the offline model, then each connection's (the server's own and theirs), named by it.
    authed.get(
      '/models/',
      { schema: { tags: modelsTags, summary: 'The models agents can use', response: { 200: modelsResponse } } },
      async (req) => (await pickerModels(ctx, req.userId)).map((m) => ({ ...m })),
    );
    authed.get(
      '/models/available',
      {
        schema: {
          tags: modelsTags,
          summary: 'The models agents can use, as { models }',
          response: { 200: modelsResponse },
        },
      },
      async (req) => ({ models: (await pickerModels(ctx, req.userId)).map((m) => ({ ...m })) }),
    );

    authed.get(
      '/monitor/stats',
      {
        schema: {
          tags,
          summary: 'Your figures: agents, connections, audio, discussions',
          response: { 200: monitorStats },
        },
      },
      async (req) => userStats(ctx, req.userId),
    );

    // Each provider's status only, as /health tells the public: its detail (addresses, binary paths, error texts)
    // is the operator's (/health with the operator token), not every signed-in user's.
    const debugSchema = {
      tags,
      summary: 'Version, Node, database and providers, for a bug report (operator)',
      description:
        "Each provider's status; the operator token's /health adds their details. The operator's account only (README 'Operator').",
      response: { 200: debugInfo },
      errors: { 403: OPERATOR_ONLY('read the debug information') },
    };
    authed.get('/debug/info', { schema: debugSchema }, async (req) => {
      await requireOperator(ctx, req, 'read the debug information');
      const h = await health();
      return {
        version: APP_VERSION,
        node: process.version,
        database: ctx.db.kind,
        providers: Object.fromEntries(
          (['database', 'llm', 'speech', 'transcription'] as const).map((k) => [k, h.components[k].status]),
        ),
        uptime_s: Math.round((Date.now() - ctx.startedAt) / 1000),
      };
    });
  });
}
