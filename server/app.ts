import { redactUrl } from './http/redact';
import { randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import fastifyRateLimit from '@fastify/rate-limit';
import fastifyStatic from '@fastify/static';
import { spaPathRoutes } from './http/spaPaths';
import Fastify, { LogController, type FastifyInstance } from 'fastify';
import { createTokenService, resolveSecret } from './auth/tokens';
import { loadConfig, requestsLogged, type ServerConfig } from './config';
import type { AppContext } from './context';
import { openDb } from './db/db';
import { enginePlugin } from './engine/plugin';
import { modelsPlugin } from './models/plugin';
import { modelDownloadsPlugin } from './models/downloadsPlugin';
import { operatorPlugin } from './auth/operator';
import { transcriptionPlugin } from './audio/transcription';
import { evalPlugin } from './eval/service';
import { voicesPlugin } from './voices/state';
import { toolsPlugin } from './tools/state';
import { roomsPlugin } from './rooms/plugin';
import { migrate, migrationsKey } from './db/migrate';
import { pgRateStore } from './http/pgRateStore';
import { frameworkErrors, installErrorHandler } from './http/errors';
import { EarlyAnswers } from './http/earlyAnswers';
import { secureServerFactory } from './http/security';
import { lazyLogger } from './http/lazyLogger';
import pino from 'pino';
import { createProviders } from './providers';
import { scheduleTtsPruning } from './providers/speech/retention';
import type { Providers } from './providers/providers';
import { LiveHub } from './realtime/hub';
import { PgLiveBus } from './realtime/pgBus';
import { claimDataDir } from './db/dataDirLock';
import { createEngineState } from './engine/hooks';
import { registerRoutes } from './routes';
import { apiDocsRoutes } from './routes/apiDocs';
import { routeCatalog, zodSchemaController, type CatalogRoute } from './http/routeSchema';
import type { StartupTimer } from './startupTimer';

export interface BuiltServer {
  app: FastifyInstance;
  ctx: AppContext;
  /** Every route registered, as the OpenAPI document reads them. */
  routes: readonly CatalogRoute[];
  /** Listens and resolves with the bound URL (http://host:port). */
  listen(): Promise<string>;
  close(): Promise<void>;
}

/** Builds the whole server: storage, migrations, auth, providers, routes, sockets, and the SPA. */
export async function buildServer(
  overrides: Partial<ServerConfig> = {},
  opts: { providers?: Providers; timer?: StartupTimer } = {},
): Promise<BuiltServer> {
  const { timer } = opts;
  const config = loadConfig(process.env, overrides);
  const inMemory = config.databaseUrl === 'memory://';
  if (!inMemory) await mkdir(config.dataDir, { recursive: true });
  await mkdir(config.mediaDir, { recursive: true });

  // PGlite is one process: a second server on the same DATA_DIR is refused with a clear message.
  const releaseDataDir =
    !inMemory && !isPostgresUrl(config.databaseUrl) ? await claimDataDir(config.dataDir) : async () => {};
  const template = { key: await migrationsKey(), prepare: migrate };
  const db = await openDb({ databaseUrl: config.databaseUrl, dataDir: config.dataDir, template }).catch(async (err) => {
    await releaseDataDir();
    throw err;
  });
  timer?.mark('database', db.opened);
  const applied = await migrate(db);
  timer?.mark('migrations', `${applied.length} applied`);
  const hub = new LiveHub();
  const instanceId = randomUUID();
  const secret = await resolveSecret(config.jwtSecret, config.dataDir, !inMemory);
  const providers = opts.providers ?? createProviders(config);
  // The server's shared parts; each subsystem's own state (ctx.discussions, ctx.models, ctx.evalJobs, …) is put
  // here by the subsystem's plugin as it registers, below, before any route can read it.
  const ctx = {
    config,
    db,
    tokens: createTokenService(secret, config.jwtTtlMinutes),
    hub,
    providers,
    engine: createEngineState(),
    startedAt: Date.now(),
    instanceId,
    bus: null,
  } satisfies Partial<AppContext> as AppContext;

  const earlyAnswers = new EarlyAnswers();
  const app = Fastify({
    // pino, its children made when first written to (http/lazyLogger.ts).
    loggerInstance:
      config.logLevel === 'silent'
        ? undefined
        : lazyLogger(
            pino({
              level: config.logLevel,
              // Sockets carry a session token or a ticket in the query string; neither may reach a log.
              serializers: { req: (req) => ({ method: req.method, url: redactUrl(req.url) }) },
            }),
          ),
    // One line per request is noise at info; LOG_LEVEL=debug brings it back.
    logController: new LogController({
      disableRequestLogging: !requestsLogged(config.logLevel),
    }),
    bodyLimit: 2 * 1024 * 1024,
    // Client addresses (rate limits, loopback checks) come from X-Forwarded-For only through proxies named in
    // TRUST_PROXY; by default the socket's peer address is the client.
    trustProxy: typeof config.trustProxy === 'number' ? hops(config.trustProxy) : config.trustProxy,
    frameworkErrors,
    // Routes validate their requests with the zod schemas of their `schema` option, which also document them.
    schemaController: zodSchemaController,
    // The security headers ride on every answer's head (http/security.ts); /health is answered before the router.
    serverFactory: secureServerFactory(earlyAnswers),
  });
  app.decorate('ctx', ctx);
  app.decorate('earlyAnswers', earlyAnswers);
  app.addHook('preClose', (done) => {
    earlyAnswers.close();
    done();
  });
  const stopPruning = scheduleTtsPruning(config.mediaDir, config.ttsRetentionHours * 3_600_000, (err) =>
    app.log.warn({ err }, 'could not prune old speech clips'),
  );
  // Added first, so it runs last: onClose hooks run in reverse order, and every plugin's (the engine's, the
  // routes') may still need the database.
  app.addHook('onClose', async () => {
    stopPruning();
    await ctx.bus?.close();
    await db.close();
    await releaseDataDir();
  });
  if (db.kind === 'postgres') {
    ctx.bus = new PgLiveBus({
      url: config.databaseUrl!,
      db,
      hub,
      origin: instanceId,
      heartbeatMs: config.clusterHeartbeatMs,
      log: app.log,
    });
    await ctx.bus.start();
  }
  app.decorateRequest('userId', '');
  installErrorHandler(app);
  const catalog = routeCatalog(app);
  // No hook at the root: each is one more step for every request to walk (npm run bench server, /health). A NUL in
  // the address is refused by the server's request handler (http/security.ts), before Fastify.
  // With more than one process the counters are shared in PostgreSQL (http/pgRateStore.ts); PGlite counts in memory.
  await app.register(fastifyRateLimit, {
    global: false,
    ...(db.kind === 'postgres' ? { store: pgRateStore(db) } : {}),
  });
  // The subsystems, each owning its state and its close: the discussion engine (recovery, cluster, hand-over), the
  // model connections and the built-in engine's downloads, the operator rule, transcriptions, voices, evaluations,
  // tools (the operator's MCP servers, tool lists, call counts, approvals).
  await app.register(enginePlugin);
  await app.register(modelsPlugin);
  await app.register(modelDownloadsPlugin);
  await app.register(operatorPlugin);
  await app.register(transcriptionPlugin);
  await app.register(voicesPlugin);
  await app.register(evalPlugin);
  await app.register(toolsPlugin);
  await app.register(roomsPlugin);
  await registerRoutes(app);
  await app.register(apiDocsRoutes, { catalog });
  await serveSpa(app, config.staticDir);
  timer?.mark('routes');

  return {
    app,
    ctx,
    routes: catalog,
    async listen() {
      return app.listen({ port: config.port, host: config.host });
    },
    close: () => app.close(),
  };
}

const isPostgresUrl = (url: string | undefined) => !!url && /^postgres(ql)?:\/\//.test(url);

/** TRUST_PROXY as a hop count: the nearest n addresses of X-Forwarded-For are proxies (as proxy-addr reads a number). */
const hops = (n: number) => (_addr: string, i: number) => i < n;

/** Vite's folder for the hashed bundles in dist/ (build.assetsDir). */
const ASSETS = 'assets';

/** The built SPA at /, with index.html for any other GET that asks for a page; API misses answer {detail}. */
async function serveSpa(app: FastifyInstance, dir: string | undefined) {
  const hasSpa = !!dir && existsSync(path.join(dir, 'index.html'));
  if (hasSpa) {
    // The top-level files each on a route of their own, and the hashed bundles under /assets/ through one wildcard
    // route: a route per file globbed the whole of dist/ and added ~150 routes to the router at every start (60–80 ms
    // of a start with existing data: npm run bench server), while a wildcard at the root would be one more branch
    // for every request's lookup (/health). A path that is no file, or a dotfile, falls through to the not-found
    // handler below.
    await app.register(fastifyStatic, {
      root: dir,
      prefix: '/',
      wildcard: false,
      globIgnore: [`${ASSETS}/**`],
      index: ['index.html'],
    });
    const assets = path.join(dir, ASSETS);
    if (existsSync(assets))
      await app.register(fastifyStatic, {
        root: assets,
        prefix: `/${ASSETS}/`,
        dotfiles: 'ignore',
        decorateReply: false,
      });
    // Every view's address answers the app (a reload, a link): never a 404 page.
    await app.register(spaPathRoutes);
  }
  app.setNotFoundHandler((req, reply) => {
    const wantsPage = req.method === 'GET' && (req.headers.accept ?? '').includes('text/html');
    if (hasSpa && wantsPage) return reply.type('text/html').sendFile('index.html');
    return reply.status(404).send({ detail: `Not found: ${req.method} ${req.url.split('?')[0]}` });
  });
}
