import { randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SHARE_INVALID_TEXT } from '../../src/schemas/rooms';
import { postgresUnavailableReason, startPostgres, type PgCluster } from './postgresCluster';
import { call, startServerProcess, type ServerProcess } from './serverProcess';

// A share link revoked through one server process is refused by the other at once: each open reads the links table.
const reason = postgresUnavailableReason();

describe.skipIf(reason !== null)(`share links on two server processes${reason ? ` (skipped: ${reason})` : ''}`, () => {
  let cluster: PgCluster;
  let dir: string;
  let a: ServerProcess;
  let b: ServerProcess;
  let admin: pg.Client;

  beforeAll(async () => {
    cluster = await startPostgres();
    dir = await mkdtemp(path.join(tmpdir(), 'agora-shares-'));
    const env = { DATABASE_URL: cluster.url, MEDIA_DIR: path.join(dir, 'media') };
    a = await startServerProcess({ ...env, DATA_DIR: path.join(dir, 'a') });
    b = await startServerProcess({ ...env, DATA_DIR: path.join(dir, 'b') });
    admin = new pg.Client({ connectionString: cluster.url });
    await admin.connect();
  }, 120_000);
  afterAll(async () => {
    await admin?.end().catch(() => {});
    await a?.kill();
    await b?.kill();
    await cluster?.stop();
    if (dir) await rm(dir, { recursive: true, force: true });
  }, 30_000);

  it('revokes through A, refused by B on the next open', async () => {
    const reg = await call(a.url, 'POST', '/auth/register', undefined, {
      email: `s${Date.now()}@example.com`,
      password: 'secret-pass',
    });
    const token = reg.body.access_token as string;
    const id = randomUUID();
    await admin.query(
      `INSERT INTO discussions (id, user_id, session_id, endpoint, topic, config, status, ended_at)
         VALUES ($1, $2, $3, '/ws/discuss', 'Shared across processes', '{}'::jsonb, 'ended', now())`,
      [id, reg.body.user.id, `session_${id}`],
    );
    const made = await call(a.url, 'POST', `/discussions/${id}/shares`, token, {});
    expect(made.status).toBe(201);
    const publicPath = `/shares/${String(made.body.url).split('/').pop()}/discussion`;
    const before = await call(b.url, 'GET', publicPath);
    expect(before.status).toBe(200);
    expect(before.body.topic).toBe('Shared across processes');

    expect((await call(a.url, 'DELETE', `/shares/${made.body.id}`, token)).status).toBe(204);
    const after = await call(b.url, 'GET', publicPath);
    expect(after).toMatchObject({ status: 404, body: { detail: SHARE_INVALID_TEXT } });
  });
});
