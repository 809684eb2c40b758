import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDb, type Db } from '../../server/db/db';
import { migrate } from '../../server/db/migrate';
import { createDiscussion, recordHumanMessage } from '../../server/engine/store';
import { postgresUnavailableReason, startPostgres, type PgCluster } from './postgresCluster';

// Human messages are numbered by their discussion's counter, not `max(n) + 1`: on PostgreSQL several pool
// connections store messages at the same moment, and two reading one maximum would collide on (discussion_id, n)
// and lose a message.

async function tenAtOnce(db: Db) {
  await migrate(db);
  const userId = randomUUID();
  await db.query('INSERT INTO users (id, email, password_hash) VALUES ($1, $2, $3)', [
    userId,
    `${userId}@example.org`,
    'x',
  ]);
  const id = randomUUID();
  await createDiscussion(db, {
    id,
    userId,
    sessionId: 'session_numbers',
    endpoint: 'basic',
    topic: 'Numbers',
    config: {},
  });
  const numbers = await Promise.all(
    Array.from({ length: 10 }, (_, i) => recordHumanMessage(db, id, `message ${i}`, null)),
  );
  expect([...numbers].sort((a, b) => a! - b!)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
  const stored = await db.query<{ n: number; text: string }>(
    'SELECT n, text FROM discussion_human_messages WHERE discussion_id = $1 ORDER BY n',
    [id],
  );
  expect(stored.map((r) => r.n)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
  expect(new Set(stored.map((r) => r.text)).size).toBe(10);
  // The next one follows on.
  expect(await recordHumanMessage(db, id, 'eleven', null)).toBe(11);
}

describe('human message numbers', () => {
  it('are unique under ten simultaneous messages on PGlite', async () => {
    const db = await openDb({ databaseUrl: 'memory://', dataDir: '/nonexistent' });
    try {
      await tenAtOnce(db);
    } finally {
      await db.close();
    }
  });

  const reason = postgresUnavailableReason();
  describe.skipIf(reason !== null)(`on PostgreSQL${reason ? ` (skipped: ${reason})` : ''}`, () => {
    let cluster: PgCluster;
    let db: Db;
    beforeAll(async () => {
      cluster = await startPostgres();
      db = await openDb({ databaseUrl: cluster.url, dataDir: '/nonexistent' });
    }, 60_000);
    afterAll(async () => {
      await db?.close();
      await cluster?.stop();
    });

    it('are unique under ten simultaneous messages over the pool', async () => {
      expect(db.kind).toBe('postgres');
      await tenAtOnce(db);
    });
  });
});
