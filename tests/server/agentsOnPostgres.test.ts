import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AUDIO_SAMPLES, createAgent, providersWith, upload } from './audioFixtures';
import { startTestServer, type TestServer } from './harness';
import { postgresUnavailableReason, startPostgres, type PgCluster } from './postgresCluster';

// The agent, connection and audio SQL (FOR UPDATE locks, the one-default partial index, JSONB) on a real
// PostgreSQL, where requests really run concurrently on a pool.
const reason = postgresUnavailableReason();
describe.skipIf(reason !== null)(`agents and audio on PostgreSQL${reason ? ` (skipped: ${reason})` : ''}`, () => {
  let cluster: PgCluster;
  let s: TestServer;
  beforeAll(async () => {
    cluster = await startPostgres();
    s = await startTestServer(
      { databaseUrl: cluster.url },
      { providers: providersWith({ transcribe: async () => 'spoken words' }) },
    );
  }, 60_000);
  afterAll(async () => {
    await s?.close();
    await cluster?.stop();
  });

  it('runs the whole agent lifecycle with exactly one default under concurrent requests', async () => {
    expect(s.server.ctx.db.kind).toBe('postgres');
    const { token } = await s.register();
    const a = await createAgent(s, token, 'A', { personality: 'analytical' });
    const b = await createAgent(s, token, 'B');
    expect(a).toMatchObject({ capabilities: ['research'], personality: 'analytical', status: 'idle' });
    expect((await s.api('PUT', `/agents/${a.id}/position`, { token, body: { x: 1.5, y: 2 } })).body).toMatchObject({
      x: 1.5,
      y: 2,
    });
    expect((await s.api('POST', '/connections/auto-connect', { token })).body.connections_created).toBe(1);

    // Concurrent first uploads: exactly one becomes the default.
    const ups = await Promise.all(
      ['1', '2', '3', '4'].map((n) => upload(s, token, a.id, AUDIO_SAMPLES.wav.bytes, 'a.wav', { name: n })),
    );
    expect(ups.map((r) => r.status)).toEqual([201, 201, 201, 201]);
    expect(ups.every((r) => r.body.transcript === 'spoken words')).toBe(true);
    const defaults = async () =>
      (await s.api('GET', `/agents/${a.id}/audio`, { token })).body.filter(
        (x: { is_default: boolean }) => x.is_default,
      );
    expect(await defaults()).toHaveLength(1);

    // Concurrent set-defaults: still exactly one.
    const sets = await Promise.all(ups.map((u) => s.api('POST', `/agents/audio/${u.body.id}/set-default`, { token })));
    expect(sets.map((r) => r.status)).toEqual([200, 200, 200, 200]);
    expect(await defaults()).toHaveLength(1);

    const current = (await defaults())[0];
    await s.api('DELETE', `/agents/audio/${current.id}`, { token });
    expect(await defaults()).toHaveLength(1);

    expect(
      (
        await s.api('POST', '/agents/audio/batch-transcribe', {
          token,
          body: { agent_id: a.id, force_retranscribe: true },
        })
      ).body.count,
    ).toBe(3);

    const del = await s.api('DELETE', `/agents/${a.id}`, { token });
    expect(del.body).toMatchObject({ audio_deleted: 3, connections_deleted: 1 });
    expect((await s.api('GET', '/agents/', { token })).body.map((x: { id: string }) => x.id)).toEqual([b.id]);
    expect((await s.api('GET', '/connections/', { token })).body).toEqual([]);
  });
});
