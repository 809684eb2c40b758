import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../context';
import { HttpError } from '../http/errors';
import { perUserLimit } from '../http/userRateLimit';
import { ttsBytesOf } from '../providers/speech/speak';

// The caps every kind of connection holds, written once (README 'Limits'): Test and Save rate limits per user,
// connections per user, and the speech quota on every write of speech. The caps on what a connected server
// answers (lists, audio, replies) are read where its answer is read (boundedBody.ts and its callers).

/** The tables of connections a user owns, each counted against MAX_CONNECTIONS_PER_USER on its own. */
export type ConnectionTable = 'model_connections' | 'speech_connections' | 'tool_connections';

/**
 * Per user and minute: Test is a cheap scanner of the server's own network, Save makes the server call out too
 * (MODEL_TEST_RATE_LIMIT, MODEL_SAVE_RATE_LIMIT, for every kind of connection).
 */
export function connectionRateLimits(app: FastifyInstance, ctx: AppContext) {
  return {
    testLimited: perUserLimit(app, ctx.config.modelTestRateLimit, 'connection tests'),
    saveLimited: perUserLimit(app, ctx.config.modelSaveRateLimit, 'connection saves'),
  };
}

/** Refuses a new connection past MAX_CONNECTIONS_PER_USER (`noun`: 'model connections'). */
export async function assertRoomForConnection(ctx: AppContext, table: ConnectionTable, userId: string, noun: string) {
  const max = ctx.config.maxConnectionsPerUser;
  const [{ n }] = await ctx.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM ${table} WHERE user_id = $1`, [
    userId,
  ]);
  if (n >= max)
    throw new HttpError(
      409,
      `You have ${n} ${noun}, as many as this server allows (MAX_CONNECTIONS_PER_USER=${max}); delete one to add another`,
    );
}

/** The user's stored speech against TTS_QUOTA_MB: the sentence a refusal says, or null while there is room. */
export async function ttsQuotaRefusal(ctx: AppContext, userId: string): Promise<string | null> {
  const { ttsQuotaMb, ttsRetentionHours } = ctx.config;
  if (ttsQuotaMb <= 0) return null;
  if ((await ttsBytesOf(ctx.db, userId, ttsRetentionHours)) < ttsQuotaMb * 1024 * 1024) return null;
  const kept = ttsRetentionHours > 0 ? `; clips are removed ${ttsRetentionHours} hours after they are made` : '';
  return `Your stored speech has reached its quota of ${ttsQuotaMb} MB (TTS_QUOTA_MB)${kept}.`;
}

/** Every route that stores speech checks the quota first (a spoken text, a voice sample). */
export async function assertTtsQuota(ctx: AppContext, userId: string) {
  const refusal = await ttsQuotaRefusal(ctx, userId);
  if (refusal) throw new HttpError(429, refusal);
}
