import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDb, type Db } from '../../server/db/db';
import { migrate } from '../../server/db/migrate';
import { postgresUnavailableReason, startPostgres, type PgCluster } from './postgresCluster';

// The same migrations must run on the embedded default and on a real PostgreSQL.
async function exercise(db: Db) {
  const first = await migrate(db);
  expect(first.length).toBeGreaterThan(0);
  expect(await migrate(db)).toEqual([]); // idempotent
  const tables = (
    await db.query<{ table_name: string }>(
      `SELECT table_name FROM information_schema.tables WHERE table_schema = 'public' ORDER BY 1`,
    )
  ).map((r) => r.table_name);
  expect(tables).toEqual(
    expect.arrayContaining([
      'users',
      'agents',
      'connections',
      'audio_items',
      'discussions',
      'discussion_frames',
      'schema_migrations',
    ]),
  );
  await db.query(`INSERT INTO users (id, email, password_hash) VALUES ('u1', 'a@b.c', 'x')`);
  await db.query(
    `INSERT INTO agents (id, user_id, name, role, prompt, model) VALUES ('a1', 'u1', 'n', 'r', 'p', 'offline')`,
  );
  // A failing transaction leaves nothing behind.
  await expect(
    db.transaction(async (tx) => {
      await tx.query(`DELETE FROM agents WHERE id = 'a1'`);
      throw new Error('boom');
    }),
  ).rejects.toThrow('boom');
  expect(await db.query(`SELECT id FROM agents`)).toHaveLength(1);
  await db.query(`DELETE FROM users WHERE id = 'u1'`);
  expect(await db.query(`SELECT id FROM agents`)).toHaveLength(0); // cascades
}

describe('migrations', () => {
  it('run on embedded PGlite', async () => {
    const db = await openDb({ databaseUrl: 'memory://', dataDir: '/nonexistent' });
    try {
      await exercise(db);
    } finally {
      await db.close();
    }
  });

  const reason = postgresUnavailableReason();
  describe.skipIf(reason !== null)(`on PostgreSQL${reason ? ` (skipped: ${reason})` : ''}`, () => {
    let cluster: PgCluster;
    beforeAll(async () => {
      cluster = await startPostgres();
    }, 60_000);
    afterAll(async () => cluster?.stop());
    it('run on a real PostgreSQL server', async () => {
      const db = await openDb({ databaseUrl: cluster.url, dataDir: '/nonexistent' });
      try {
        expect(db.kind).toBe('postgres');
        await exercise(db);
      } finally {
        await db.close();
      }
    });
  });
});
