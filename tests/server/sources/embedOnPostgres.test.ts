import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { embeddingSettings } from '../../../src/schemas/sources';
import { startTestServer, type TestServer } from '../harness';
import { postgresUnavailableReason, startPostgres, type PgCluster } from '../postgresCluster';
import { DIMENSIONS, startFakeEmbedder } from './embedServers';
import { addConnection, addDocs, DOCS, settled, turnTexts } from './embedFlow';

// Searching by meaning on a real PostgreSQL. Where pgvector is not installed (Debian 12's PostgreSQL 15 has no
// package for it), the migration's CREATE EXTENSION fails inside its block: the server starts, says it keeps no
// vectors, refuses a model with a sentence, and every source is searched by words. Where it is installed, the same
// as on PGlite: a passage sharing no word with the question is found by meaning.
const reason = postgresUnavailableReason();
describe.skipIf(reason !== null)(`sources by meaning on PostgreSQL${reason ? ` (skipped: ${reason})` : ''}`, () => {
  let cluster: PgCluster;
  let s: TestServer;
  let ollama: Awaited<ReturnType<typeof startFakeEmbedder>>;
  let pgvector = false;
  beforeAll(async () => {
    cluster = await startPostgres();
    ollama = await startFakeEmbedder('ollama');
    s = await startTestServer({ databaseUrl: cluster.url });
    const [r] = await s.server.ctx.db.query<{ n: string }>(
      `SELECT count(*) AS n FROM pg_available_extensions WHERE name = 'vector'`,
    );
    pgvector = Number(r.n) > 0;
  }, 60_000);
  afterAll(async () => {
    await s?.close();
    await ollama?.close();
    await cluster?.stop();
  });

  it('starts, and says whether it keeps vectors as pgvector is installed or not', async () => {
    expect(s.server.ctx.db.kind).toBe('postgres');
    const { token } = await s.register();
    const settings = embeddingSettings.parse((await s.api('GET', '/sources/embedding', { token })).body);
    expect(settings.available).toBe(pgvector);
    const [t] = await s.server.ctx.db.query<{ present: boolean }>(
      `SELECT to_regclass('source_passage_vectors') IS NOT NULL AS present`,
    );
    expect(t.present).toBe(pgvector);
  });

  it('without pgvector refuses a model with a sentence and searches by words', async ({ skip }) => {
    if (pgvector) skip('pgvector is installed on this PostgreSQL');
    const { token, userId } = await s.register();
    const conn = await addConnection(s, token, 'ollama', ollama.url);
    const put = await s.api('PUT', '/sources/embedding', { token, body: { model: `@${conn.id}/nomic-embed-text` } });
    expect(put.status).toBe(409);
    expect(put.body.detail).toMatch(/no pgvector extension, so sources are searched by words only/);
    const ids = await addDocs(s, token);
    expect((await settled(s, token)).every((x) => x.searched_by === 'words' && x.embedding === 'none')).toBe(true);
    expect(await turnTexts(s, userId, Object.values(ids))).toEqual([DOCS.council]);
    expect(ollama.state.embedded).toBe(0);
  });

  it('with pgvector finds the passage that shares no word with the question', async ({ skip }) => {
    if (!pgvector) skip('pgvector is not installed on this PostgreSQL');
    const { token, userId } = await s.register();
    const conn = await addConnection(s, token, 'ollama', ollama.url);
    const put = await s.api('PUT', '/sources/embedding', { token, body: { model: `@${conn.id}/nomic-embed-text` } });
    expect(put.status, JSON.stringify(put.body)).toBe(200);
    expect(put.body.dimensions).toBe(DIMENSIONS);
    const ids = await addDocs(s, token);
    expect((await settled(s, token)).every((x) => x.searched_by === 'words_and_meaning')).toBe(true);
    const texts = await turnTexts(s, userId, Object.values(ids));
    expect(texts.slice(0, 2).sort()).toEqual([DOCS.council, DOCS.exhaust].sort());
  });
});
