import { randomUUID } from 'node:crypto';
import type { Queryable } from '../db/db';
import { HttpError } from '../http/errors';
import type { SecretBox } from '../models/secrets';
import { keyHint } from '../models/secrets';
import type { ConnectionTable } from './caps';

// One store for every table of a user's connections (model_connections, speech_connections): every query is
// scoped to its user, a name is unique per user whatever its case, and the sealed key leaves only opened, for the
// call that needs it. A table differs only in its kind's own columns (a model connection's preset, a speech
// connection's model), named in `extra`.

export interface StoredConnection {
  id: string;
  user_id: string;
  kind: string;
  name: string;
  base_url: string;
  api_key_sealed: string | null;
  api_key_hint: string | null;
  updated_at: string | Date;
}

export interface ConnectionStoreSpec<Extra extends string> {
  table: ConnectionTable;
  /** How a refusal names one: 'connection', 'speech connection'. */
  noun: string;
  /** The 404's words. */
  notFound: string;
  /** The kind's own columns, written as given on insert and kept unless given on update. */
  extra: readonly Extra[];
}

type ExtraFields<Extra extends string> = { [K in Extra]: string | null };
export type ConnectionInput<Row extends StoredConnection, Extra extends string> = Pick<
  Row,
  'kind' | 'name' | 'base_url'
> & { api_key: string | null } & ExtraFields<Extra>;
/** `api_key`: undefined keeps the stored key, null or '' removes it, a string replaces it. */
export type ConnectionPatch<Extra extends string> = {
  name?: string;
  base_url?: string;
  api_key?: string | null;
} & Partial<ExtraFields<Extra>>;

const isUniqueViolation = (e: unknown) => (e as { code?: string })?.code === '23505';

export function connectionStore<Row extends StoredConnection, Extra extends string>(spec: ConnectionStoreSpec<Extra>) {
  const { table, extra } = spec;
  const nameClash = (name: string) =>
    new HttpError(409, `You already have a ${spec.noun} named "${name}"; choose another name`);

  async function find(db: Queryable, userId: string, id: string): Promise<Row | null> {
    const [row] = await db.query<Row>(`SELECT * FROM ${table} WHERE id = $1 AND user_id = $2`, [id, userId]);
    return row ?? null;
  }

  async function owned(db: Queryable, userId: string, id: string): Promise<Row> {
    const row = await find(db, userId, id);
    if (!row) throw new HttpError(404, spec.notFound);
    return row;
  }

  async function assertNameFree(db: Queryable, userId: string, name: string, exceptId: string | null) {
    const rows = await db.query<{ id: string }>(
      `SELECT id FROM ${table} WHERE user_id = $1 AND lower(name) = lower($2)`,
      [userId, name],
    );
    if (rows.some((r) => r.id !== exceptId)) throw nameClash(name);
  }

  /** A write that may meet another with the same name at once: the unique index says it, in the same words. */
  async function writing<T>(name: string, write: () => Promise<T>): Promise<T> {
    try {
      return await write();
    } catch (e) {
      if (isUniqueViolation(e)) throw nameClash(name);
      throw e;
    }
  }

  return {
    list: (db: Queryable, userId: string) =>
      db.query<Row>(`SELECT * FROM ${table} WHERE user_id = $1 ORDER BY created_at, id`, [userId]),
    find,
    owned,

    /** The row's key, or null when it has none or it was sealed with another SECRETS_KEY (entered again then). */
    openKey(box: SecretBox, row: Row): string | null {
      try {
        return row.api_key_sealed ? box.open(row.api_key_sealed, row.id) : null;
      } catch {
        return null;
      }
    },

    async insert(db: Queryable, box: SecretBox, userId: string, input: ConnectionInput<Row, Extra>): Promise<Row> {
      await assertNameFree(db, userId, input.name, null);
      const id = randomUUID();
      const columns = ['id', 'user_id', 'kind', 'name', 'base_url', 'api_key_sealed', 'api_key_hint', ...extra];
      const values = [
        id,
        userId,
        input.kind,
        input.name,
        input.base_url,
        input.api_key ? box.seal(input.api_key, id) : null,
        input.api_key ? keyHint(input.api_key) : null,
        ...extra.map((c) => input[c]),
      ];
      return writing(input.name, async () => {
        const [row] = await db.query<Row>(
          `INSERT INTO ${table} (${columns.join(', ')}) VALUES (${columns.map((_, i) => `$${i + 1}`).join(', ')}) RETURNING *`,
          values,
        );
        return row;
      });
    },

    async update(db: Queryable, box: SecretBox, userId: string, id: string, patch: ConnectionPatch<Extra>) {
      const current = await owned(db, userId, id);
      const name = patch.name ?? current.name;
      await assertNameFree(db, userId, name, id);
      let sealed = current.api_key_sealed;
      let hint = current.api_key_hint;
      if (patch.api_key !== undefined) {
        sealed = patch.api_key ? box.seal(patch.api_key, id) : null;
        hint = patch.api_key ? keyHint(patch.api_key) : null;
      }
      const set: Record<string, unknown> = {
        name,
        base_url: patch.base_url ?? current.base_url,
        api_key_sealed: sealed,
        api_key_hint: hint,
      };
      for (const c of extra) {
        const given = (patch as Partial<ExtraFields<Extra>>)[c];
        set[c] = given !== undefined ? given : (current as unknown as ExtraFields<Extra>)[c];
      }
      const names = Object.keys(set);
      return writing(name, async () => {
        const [row] = await db.query<Row>(
          `UPDATE ${table} SET ${names.map((c, i) => `${c} = $${i + 3}`).join(', ')}, updated_at = now()
           WHERE id = $1 AND user_id = $2 RETURNING *`,
          [id, userId, ...Object.values(set)],
        );
        if (!row) throw new HttpError(404, spec.notFound);
        return row;
      });
    },

    async remove(db: Queryable, userId: string, id: string) {
      const rows = await db.query<{ id: string }>(`DELETE FROM ${table} WHERE id = $1 AND user_id = $2 RETURNING id`, [
        id,
        userId,
      ]);
      if (!rows.length) throw new HttpError(404, spec.notFound);
    },
  };
}
