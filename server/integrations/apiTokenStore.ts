import { createHash, randomBytes, randomUUID } from 'node:crypto';
import {
  API_TOKEN_PREFIX,
  type ApiToken,
  type ApiTokenCreate,
  type ApiTokenCreated,
  type ApiTokenScope,
} from '../../src/schemas/apiTokens';
import type { Db, Queryable } from '../db/db';
import { HttpError } from '../http/errors';

// API tokens' SQL. A token is 256 random bits after `agora_`; only its SHA-256 is stored (a high-entropy secret
// needs no slow hash: nobody can guess its way to one), so a copy of the database opens nothing. A deleted token
// is gone at once for every process, since each request looks its hash up.

export const API_TOKEN_NOT_FOUND = 'API token not found';

interface TokenRow {
  id: string;
  user_id: string;
  name: string;
  hint: string;
  scopes: ApiTokenScope[] | string;
  created_at: Date | string;
  expires_at: Date | string | null;
  last_used_at: Date | string | null;
}

const iso = (v: Date | string | null) => (v === null ? null : new Date(v).toISOString());
const toToken = (r: TokenRow): ApiToken => ({
  id: r.id,
  name: r.name,
  scopes: typeof r.scopes === 'string' ? JSON.parse(r.scopes) : r.scopes,
  hint: r.hint,
  created_at: iso(r.created_at)!,
  expires_at: iso(r.expires_at),
  last_used_at: iso(r.last_used_at),
});

export const hashToken = (token: string) => createHash('sha256').update(token).digest('hex');
export const looksLikeApiToken = (token: string) => token.startsWith(API_TOKEN_PREFIX);

export const listTokens = async (db: Queryable, userId: string): Promise<ApiToken[]> =>
  (await db.query<TokenRow>('SELECT * FROM api_tokens WHERE user_id = $1 ORDER BY created_at DESC, id', [userId])).map(
    toToken,
  );

export async function createToken(
  db: Db,
  userId: string,
  body: ApiTokenCreate,
  perUser: number,
): Promise<ApiTokenCreated> {
  const token = `${API_TOKEN_PREFIX}${randomBytes(32).toString('base64url')}`;
  return db.transaction(async (tx) => {
    await tx.query('SELECT id FROM users WHERE id = $1 FOR UPDATE', [userId]);
    const [{ n }] = await tx.query<{ n: string }>('SELECT count(*) AS n FROM api_tokens WHERE user_id = $1', [userId]);
    if (Number(n) >= perUser)
      throw new HttpError(
        409,
        `You have ${perUser} API tokens, the most this server keeps (API_TOKENS_PER_USER); revoke one first`,
      );
    const [row] = await tx.query<TokenRow>(
      `INSERT INTO api_tokens (id, user_id, name, token_hash, hint, scopes, expires_at)
       VALUES ($1, $2, $3, $4, $5, $6::jsonb, $7) RETURNING *`,
      [
        randomUUID(),
        userId,
        body.name,
        hashToken(token),
        `${token.slice(0, API_TOKEN_PREFIX.length + 4)}…`,
        JSON.stringify(body.scopes),
        body.expires_at ?? null,
      ],
    );
    return { ...toToken(row), token };
  });
}

export async function revokeToken(db: Queryable, userId: string, id: string) {
  const rows = await db.query('DELETE FROM api_tokens WHERE id = $1 AND user_id = $2 RETURNING id', [id, userId]);
  if (!rows.length) throw new HttpError(404, API_TOKEN_NOT_FOUND);
}

export interface TokenHolder {
  userId: string;
  tokenId: string;
  scopes: ApiTokenScope[];
}

/**
 * The holder of a presented API token, or null when it is unknown, revoked or expired (the caller says which
 * words). Its last use is written at most once a minute, so a busy client does not write on every call.
 */
export async function holderOf(db: Queryable, token: string): Promise<TokenHolder | null> {
  const [row] = await db.query<TokenRow & { expired: boolean }>(
    `SELECT t.*, (t.expires_at IS NOT NULL AND t.expires_at <= now()) AS expired
       FROM api_tokens t JOIN users u ON u.id = t.user_id WHERE t.token_hash = $1`,
    [hashToken(token)],
  );
  if (!row || row.expired) return null;
  await db.query(
    `UPDATE api_tokens SET last_used_at = now()
      WHERE id = $1 AND (last_used_at IS NULL OR last_used_at < now() - interval '1 minute')`,
    [row.id],
  );
  const { scopes } = toToken(row);
  return { userId: row.user_id, tokenId: row.id, scopes };
}
