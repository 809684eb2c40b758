import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { embeddingSettings, source } from '../../../src/schemas/sources';
import { fuseRankings, RRF_K } from '../../../server/sources/search';
import { startTestServer, type TestServer } from '../harness';
import { DIMENSIONS, startFakeEmbedder } from './embedServers';
import { addConnection, addDocs, addText, DOCS, settled, turnTexts } from './embedFlow';

// Sources searched by meaning on the embedded PGlite (pgvector): a person chooses an embedding model of one of their
// connections (a loopback Ollama /api/embed or OpenAI-compatible /v1/embeddings); each source is embedded in the
// background and says how it is searched; a turn's question finds a passage that shares no word with it through
// the vector side, merged with the full-text ranking. Without a model, by words alone; a model that errors or
// hangs leaves the source searched by words, with the reason on it.

describe('rank fusion', () => {
  const p = (id: string) => ({ id, source_id: 's', source_name: 'n', page: null, heading: null, text: id });
  it('puts a passage ranked by both above passages ranked by one, scoring Σ 1/(60 + rank)', () => {
    const fused = fuseRankings(
      [
        [p('a'), p('b'), p('c')],
        [p('d'), p('b')],
      ],
      3,
    );
    expect(fused.map((x) => x.id)).toEqual(['b', 'a', 'd']);
    expect(fused[0].rank).toBeCloseTo(1 / (RRF_K + 2) + 1 / (RRF_K + 2));
    expect(fused[1].rank).toBeCloseTo(1 / (RRF_K + 1));
  });
});

describe('sources searched by words and meaning (PGlite)', () => {
  let s: TestServer;
  let ollama: Awaited<ReturnType<typeof startFakeEmbedder>>;
  let openai: Awaited<ReturnType<typeof startFakeEmbedder>>;
  beforeAll(async () => {
    ollama = await startFakeEmbedder('ollama');
    openai = await startFakeEmbedder('openai', ['text-embedding-3-small', 'gpt-4o-mini']);
    s = await startTestServer();
  }, 60_000);
  afterAll(async () => {
    await s?.close();
    await ollama?.close();
    await openai?.close();
  });

  it('without an embedding model searches by words alone, the default', async () => {
    const { token, userId } = await s.register();
    const settings = embeddingSettings.parse((await s.api('GET', '/sources/embedding', { token })).body);
    expect(settings).toMatchObject({ model: null, available: true, candidates: [] });
    const ids = await addDocs(s, token);
    const list = await settled(s, token);
    expect(list.every((x) => x.searched_by === 'words' && x.embedding === 'none')).toBe(true);
    const texts = await turnTexts(s, userId, Object.values(ids));
    expect(texts).toEqual([DOCS.council]);
    expect(ollama.state.calls).toBe(0);
  });

  it('with an Ollama embedding model finds the passage that shares no word with the question', async () => {
    const { token, userId } = await s.register();
    const ids = await addDocs(s, token);
    const conn = await addConnection(s, token, 'ollama', ollama.url);
    const settings = embeddingSettings.parse((await s.api('GET', '/sources/embedding', { token })).body);
    // Only the model whose name says it embeds is offered.
    expect(settings.candidates.map((c) => c.id)).toEqual([`@${conn.id}/nomic-embed-text`]);

    const put = await s.api('PUT', '/sources/embedding', { token, body: { model: settings.candidates[0].id } });
    expect(put.status, JSON.stringify(put.body)).toBe(200);
    expect(put.body).toMatchObject({ model: `@${conn.id}/nomic-embed-text`, dimensions: DIMENSIONS });
    expect(put.body.label).toContain('nomic-embed-text');
    const list = await settled(s, token);
    expect(
      list.map((x) => [x.embedding, x.searched_by]),
      JSON.stringify(list),
    ).toEqual(list.map(() => ['ready', 'words_and_meaning']));

    const texts = await turnTexts(s, userId, Object.values(ids));
    expect(texts).toContain(DOCS.exhaust);
    expect(texts).toContain(DOCS.council);
    // The passage about something else may come in by meaning (the nearest k always do), but below both.
    expect(texts.slice(0, 2).sort()).toEqual([DOCS.council, DOCS.exhaust].sort());
    // Only the discussion's sources are searched, by meaning as by words.
    expect(await turnTexts(s, userId, [ids.bees])).not.toContain(DOCS.exhaust);

    // A source added now is embedded after it is stored: the answer says so, then the list.
    const later = await addText(s, token, 'fumes.md', 'Car fumes hang over the town.');
    expect(source.parse(later).embedding).toBe('embedding');
    expect((await settled(s, token)).find((x) => x.id === later.id)?.searched_by).toBe('words_and_meaning');

    // Back to words: every source says so and no vector is searched.
    const none = await s.api('PUT', '/sources/embedding', { token, body: { model: null } });
    expect(none.body.model).toBeNull();
    expect((await settled(s, token)).every((x) => x.searched_by === 'words')).toBe(true);
    expect(await turnTexts(s, userId, Object.values(ids))).toEqual([DOCS.council]);
  });

  it('with an OpenAI-compatible /v1/embeddings model the same', async () => {
    const { token, userId } = await s.register();
    const conn = await addConnection(s, token, 'openai', openai.url);
    const put = await s.api('PUT', '/sources/embedding', {
      token,
      body: { model: `@${conn.id}/text-embedding-3-small` },
    });
    expect(put.status, JSON.stringify(put.body)).toBe(200);
    const ids = await addDocs(s, token);
    const list = await settled(s, token);
    expect(list.every((x) => x.searched_by === 'words_and_meaning')).toBe(true);
    expect(await turnTexts(s, userId, Object.values(ids))).toContain(DOCS.exhaust);
  });

  it('refuses a model that cannot embed, and stores nothing', async () => {
    const { token } = await s.register();
    const conn = await addConnection(s, token, 'ollama', ollama.url);
    ollama.state.mode = 'error';
    try {
      const put = await s.api('PUT', '/sources/embedding', { token, body: { model: `@${conn.id}/llama3.2` } });
      expect(put.status).toBe(422);
      expect(put.body.detail).toMatch(/cannot embed text: Ollama answered 500/);
      expect((await s.api('GET', '/sources/embedding', { token })).body.model).toBeNull();
    } finally {
      ollama.state.mode = 'ok';
    }
    const other = await s.api('PUT', '/sources/embedding', { token, body: { model: '@nobody/x' } });
    expect(other.status).toBe(422);
  });

  it('an embedding server that errors or hangs leaves the source searched by words, and says why', async () => {
    const { token, userId } = await s.register();
    const conn = await addConnection(s, token, 'ollama', ollama.url);
    expect(
      (await s.api('PUT', '/sources/embedding', { token, body: { model: `@${conn.id}/nomic-embed-text` } })).status,
    ).toBe(200);
    const cfg = s.server.ctx.config.sources;
    const saved = { ...cfg };
    cfg.embedTimeoutMs = 1_000;
    cfg.embedQueryTimeoutMs = 300;
    try {
      ollama.state.mode = 'error';
      const broken = await addText(s, token, 'council.md', DOCS.council);
      await settled(s, token);
      ollama.state.mode = 'hang';
      const hung = await addText(s, token, 'exhaust.md', DOCS.exhaust);
      const list = await settled(s, token);
      const of = (id: string) => list.find((x) => x.id === id);
      expect(of(broken.id)).toMatchObject({ embedding: 'failed', searched_by: 'words' });
      expect(of(broken.id)?.embedding_note).toMatch(/Ollama answered 500.*searched by words/);
      expect(of(hung.id)).toMatchObject({ embedding: 'failed', searched_by: 'words' });
      expect(of(hung.id)?.embedding_note).toMatch(/did not answer within 1 s/);

      // The turn is not held up by a question the model does not embed in time, and finds the source by words.
      const started = Date.now();
      expect(await turnTexts(s, userId, [broken.id, hung.id])).toEqual([DOCS.council]);
      expect(Date.now() - started).toBeLessThan(5_000);
    } finally {
      ollama.state.mode = 'ok';
      Object.assign(cfg, saved);
    }
    // Choosing the model again embeds what failed.
    expect(
      (await s.api('PUT', '/sources/embedding', { token, body: { model: `@${conn.id}/nomic-embed-text` } })).status,
    ).toBe(200);
    expect((await settled(s, token)).every((x) => x.searched_by === 'words_and_meaning')).toBe(true);
  });
});
