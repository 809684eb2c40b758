import type { TokenService } from './auth/tokens';
import type { ServerConfig } from './config';
import type { Db } from './db/db';
import type { EngineState } from './engine/hooks';
import type { Providers } from './providers/types';
import type { LiveHub } from './realtime/hub';
import type { PgLiveBus } from './realtime/pgBus';
import type { ClusterEngine } from './engine/cluster';

/** What every route and socket handler is given: the server's parts, made once in app.ts. */
export interface AppContext {
  config: ServerConfig;
  db: Db;
  tokens: TokenService;
  hub: LiveHub;
  providers: Providers;
  /** The discussion engine's knobs, instruments and running discussions (engine/hooks.ts). */
  engine: EngineState;
  startedAt: number;
  /** This process, among the ones sharing one PostgreSQL (a random id per start). */
  instanceId: string;
  /** The cross-process live-update bus (PostgreSQL only); null on PGlite, which is one process. */
  bus: PgLiveBus | null;
  /** Discussion leases, attach from another process, take-over and hand-over (PostgreSQL only). */
  cluster: ClusterEngine | null;
}

declare module 'fastify' {
  interface FastifyInstance {
    ctx: AppContext;
  }
  interface FastifyRequest {
    userId: string;
  }
}
