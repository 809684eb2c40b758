import type { TokenService } from './auth/tokens';
import type { ServerConfig } from './config';
import type { Db } from './db/db';
import type { EngineState } from './engine/engineState';
import type { Providers } from './providers/providers';
import type { LiveHub } from './realtime/hub';
import type { PgLiveBus } from './realtime/pgBus';

/**
 * What every route and socket handler is given: the server's parts, made once in app.ts. Each subsystem's own state
 * (ctx.discussions, ctx.models, ctx.evalJobs, …) is declared on this interface by module augmentation in the
 * subsystem's module, so this file imports none of them.
 */
export interface AppContext {
  config: ServerConfig;
  db: Db;
  tokens: TokenService;
  hub: LiveHub;
  providers: Providers;
  /** The discussion engine's knobs and instruments (engine/engineState.ts). */
  engine: EngineState;
  startedAt: number;
  /** This process, among the ones sharing one PostgreSQL (a random id per start). */
  instanceId: string;
  /** The cross-process live-update bus (PostgreSQL only); null on PGlite, which is one process. */
  bus: PgLiveBus | null;
}

declare module 'fastify' {
  interface FastifyInstance {
    ctx: AppContext;
  }
  interface FastifyRequest {
    userId: string;
  }
}
