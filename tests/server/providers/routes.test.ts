import { randomUUID } from 'node:crypto';
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HYBRID_MODES, SPEED_CHOICES } from '../../../src/schemas/constants';
import {
  hybridModesResponse,
  ontologiesResponse,
  reasoningTypesResponse,
  ttsConfigOptionsResponse,
} from '../../../src/schemas/hybridMeta';
import { ENGINE_MESSAGES } from '../../../src/schemas/messages';
import { researchPapersResponse, researchSearchResponse } from '../../../src/schemas/research';
import { ttsSpeakResponse, ttsStatus, ttsVoices } from '../../../src/schemas/tts';
import { createLlmRegistry, createOfflineProvider } from '../../../server/providers';
import { createResearchService } from '../../../server/providers/research';
import { createNoSpeech } from '../../../server/providers/speech/none';
import { createNoTranscription } from '../../../server/providers/transcription/none';
import type { SpeechProvider, SpeechRequest } from '../../../server/providers/types';
import type { Providers } from '../../../server/providers/providers';
import { startTestServer, type TestServer } from '../harness';
import { closedPort } from '../../support/loopback';
import { startResearchFake } from './researchFake';
import { makeWav } from './wav';

/** A speech engine that records what it was asked and answers a small WAV (or fails on "fail"). */
function fakeSpeech(id = 'openai-speech') {
  const calls: SpeechRequest[] = [];
  const provider: SpeechProvider = {
    id,
    available: () => true,
    probe: async () => ({ status: 'ok', provider: id, detail: 'fake speech server' }),
    async synthesize(req) {
      calls.push(req);
      if (req.text === 'fail') throw new Error('The speech server answered 500: boom');
      return { audio: makeWav(500), mimeType: 'audio/wav', extension: 'wav' };
    },
  };
  return { provider, calls };
}

const baseProviders = (over: Partial<Providers> = {}): Providers => ({
  llm: createLlmRegistry([createOfflineProvider()]),
  speech: createNoSpeech(),
  transcription: createNoTranscription(),
  ...over,
});

// Three servers in all (each costs a database start): with engines, without, and with the defaults.
describe('with a speech engine and research services', () => {
  let t: TestServer;
  let fake: Awaited<ReturnType<typeof startResearchFake>>;
  const speech = fakeSpeech();
  beforeAll(async () => {
    fake = await startResearchFake();
    t = await startTestServer(
      {},
      {
        providers: baseProviders({
          speech: speech.provider,
          research: createResearchService({ baseUrls: fake.baseUrls }),
        }),
      },
    );
  });
  afterAll(async () => {
    await t.close();
    await fake.close();
  });

  it('speaks text into a clip served at /media/tts/ that answers HEAD with audio type and length', async () => {
    const { token } = await t.register();
    expect((await t.api('POST', '/api/tts/speak', { body: { text: 'Hello' } })).status).toBe(401);
    const r = await t.api('POST', '/api/tts/speak', { token, body: { text: 'Hello there.' } });
    expect(r.status).toBe(200);
    const body = ttsSpeakResponse.parse(r.body);
    expect(body.audio_url).toBe(`/media/tts/${body.filename}`);
    expect(body.filename).toMatch(/^[0-9a-f]{32}\.wav$/);
    expect(speech.calls.at(-1)).toMatchObject({ text: 'Hello there.' });

    const head = await fetch(t.url + body.audio_url, { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(head.headers.get('content-type')).toBe('audio/wav');
    expect(head.headers.get('content-length')).toBe(String(44 + 1000));
    const get = await fetch(t.url + body.audio_url);
    expect(Buffer.from(await get.arrayBuffer()).equals(makeWav(500))).toBe(true);
    const part = await fetch(t.url + body.audio_url, { headers: { range: 'bytes=0-3' } });
    expect(part.status).toBe(206);
    expect(part.headers.get('content-range')).toBe(`bytes 0-3/${44 + 1000}`);
    expect(await part.text()).toBe('RIFF');
  });

  it('refuses names it would never make, and traversal', async () => {
    for (const p of [
      '/media/tts/nope.wav',
      '/media/tts/..%2F..%2Fetc%2Fpasswd',
      '/media/tts/x.exe',
      '/media/tts/.wav',
      '/media/tts/a.b.wav',
    ]) {
      expect((await fetch(t.url + p)).status).toBe(404);
    }
  });

  it("never sends an agent's reference recording to the server's OpenAI-compatible speech; another user's agent is not found", async () => {
    const { token, userId } = await t.register();
    const created = await t.api('POST', '/agents/', {
      token,
      body: { name: 'Vera', role: 'Viticulturist', prompt: 'You know vines.', model: 'offline' },
    });
    expect(created.status).toBe(201);
    const agentId = created.body.id as string;
    const fileName = `${randomUUID()}.wav`;
    const audioDir = path.join(t.server.ctx.config.mediaDir, 'audio');
    await mkdir(audioDir, { recursive: true });
    await writeFile(path.join(audioDir, fileName), makeWav(100));
    await t.server.ctx.db.query(
      `INSERT INTO audio_items (id, user_id, agent_id, name, file_name, mime_type, size_bytes, access_key, is_default, transcript)
       VALUES ($1, $2, $3, 'Ref', $4, 'audio/wav', 244, 'k', true, 'This is my voice.')`,
      [randomUUID(), userId, agentId, fileName],
    );

    const r = await t.api('POST', '/api/tts/speak', { token, body: { text: 'In my own voice.', agent_id: agentId } });
    expect(r.status).toBe(200);
    // A clone is made through a voice-cloning connection (tests/server/voices.test.ts); the plain speech server
    // gets OpenAI's request and nothing of the recording.
    expect(r.body.cloned).toBe(false);
    expect(Object.keys(speech.calls.at(-1)!).sort()).toEqual(['format', 'signal', 'speed', 'text']);

    const voices = ttsVoices.parse((await t.api('GET', '/api/tts/voices', { token })).body);
    expect(voices.voices).toEqual([{ id: 'default', name: 'Speech server default voice' }]);

    const other = await t.register();
    const stolen = await t.api('POST', '/api/tts/speak', {
      token: other.token,
      body: { text: 'Not yours.', agent_id: agentId },
    });
    expect(stolen.status).toBe(404);
    expect(stolen.body).toEqual({ detail: 'Agent not found' });
    expect((await t.api('GET', '/api/tts/voices', { token: other.token })).body.voices).toHaveLength(1);
  });

  it('reports a failing engine as 502 with its reason, and validates the body', async () => {
    const { token } = await t.register();
    const r = await t.api('POST', '/api/tts/speak', { token, body: { text: 'fail' } });
    expect(r.status).toBe(502);
    expect(r.body).toEqual({ detail: 'Speech synthesis failed: The speech server answered 500: boom' });
    expect((await t.api('POST', '/api/tts/speak', { token, body: { text: '   ' } })).status).toBe(422);
  });

  it('reports its status', async () => {
    const { token } = await t.register();
    const s = ttsStatus.parse((await t.api('GET', '/api/tts/status', { token })).body);
    expect(s).toMatchObject({ available: true, provider: 'openai-speech', cloning: false });
    // The engine's address is the operator's to see (server/auth/operator.ts); this account is not the first.
    expect(s.detail).toBeUndefined();
  });

  it('POST /research/search answers per source', async () => {
    const { token } = await t.register();
    expect((await t.api('POST', '/research/search', { body: { query: 'x' } })).status).toBe(401);
    const r = await t.api('POST', '/research/search', {
      token,
      body: { query: 'irrigation', sources: ['arxiv', 'crossref'], max_results: 5, domain: 'vineyard' },
    });
    expect(r.status).toBe(200);
    const body = researchSearchResponse.parse(r.body);
    expect(body).toMatchObject({ query: 'irrigation', available: true, errors: [] });
    expect(body.results.map((x) => [x.source, x.results?.length])).toEqual([
      ['arxiv', 2],
      ['crossref', 2],
    ]);
    const defaults = researchSearchResponse.parse(
      (await t.api('POST', '/research/search', { token, body: { query: 'irrigation' } })).body,
    );
    expect(defaults.results.map((x) => x.source)).toEqual(['arxiv', 'pubmed', 'semantic_scholar']);
    expect((await t.api('POST', '/research/search', { token, body: { query: '' } })).status).toBe(422);
    expect((await t.api('POST', '/research/search', { token, body: { query: 'x', sources: ['google'] } })).status).toBe(
      422,
    );
    expect((await t.api('POST', '/research/search', { token, body: { query: 'x', max_results: 51 } })).status).toBe(
      422,
    );
  });

  it('GET /research/papers flattens the papers of one or several sources', async () => {
    const { token } = await t.register();
    const one = researchPapersResponse.parse(
      (await t.api('GET', '/research/papers?query=irrigation&source=pubmed', { token })).body,
    );
    expect(one.papers.map((p) => p.source)).toEqual(['pubmed', 'pubmed']);
    const two = researchPapersResponse.parse(
      (await t.api('GET', '/research/papers?query=irrigation&source=arxiv,core&max_results=1', { token })).body,
    );
    expect(two.papers.map((p) => p.source)).toEqual(['arxiv', 'core']);
    expect((await t.api('GET', '/research/papers?source=arxiv', { token })).status).toBe(422);
    expect((await t.api('GET', '/research/papers?query=x&source=bing', { token })).status).toBe(422);
  });

  it('answers the four modes, ontologies, reasoning types and speech options', async () => {
    const { token } = await t.register();
    expect((await t.api('GET', '/api/ws/hybrid/modes')).status).toBe(401);
    const modes = hybridModesResponse.parse((await t.api('GET', '/api/ws/hybrid/modes', { token })).body);
    expect(modes.modes.map((m) => m.id)).toEqual([...HYBRID_MODES]);
    for (const m of modes.modes) expect(m.description && m.best_for && m.name).toBeTruthy();
    const ont = ontologiesResponse.parse((await t.api('GET', '/api/ws/hybrid/ontologies', { token })).body);
    expect(ont.ontologies.length).toBeGreaterThan(2);
    const rt = reasoningTypesResponse.parse((await t.api('GET', '/api/ws/hybrid/reasoning-types', { token })).body);
    expect(rt.reasoning_types.map((x) => x.id)).toContain('deductive');
    const tts = ttsConfigOptionsResponse.parse(
      (await t.api('GET', '/api/ws/hybrid/tts-config-options', { token })).body,
    );
    expect(tts.speeds).toEqual([...SPEED_CHOICES]);
    expect(tts.formats).toContain('wav');
    expect(tts.defaults).toMatchObject({ enabled: false, speed: 1, volume: 1, format: 'wav' });
    expect(tts.presets.normal).toEqual({
      min_tokens: 100,
      max_tokens: 300,
      temperature: 0.7,
      description: 'Balanced length',
    });
  });
});

describe('without a speech engine or network', () => {
  let t: TestServer;
  beforeAll(async () => {
    const url = await closedPort();
    t = await startTestServer(
      {},
      {
        providers: baseProviders({
          research: createResearchService({
            baseUrls: { arxiv: url, pubmed: url, semantic_scholar: url, crossref: url, core: url },
          }),
        }),
      },
    );
  });
  afterAll(() => t.close());

  it('answers 503 "No speech engine configured", and says so in status and voices', async () => {
    const { token } = await t.register();
    const r = await t.api('POST', '/api/tts/speak', { token, body: { text: 'Hello' } });
    expect(r.status).toBe(503);
    expect(r.body).toEqual({ detail: ENGINE_MESSAGES.noSpeechEngine });
    expect(ttsStatus.parse((await t.api('GET', '/api/tts/status', { token })).body)).toMatchObject({
      available: false,
      provider: 'none',
      detail: 'No speech engine configured',
    });
    expect((await t.api('GET', '/api/tts/voices', { token })).body).toEqual({
      voices: [],
      provider: 'none',
      cloning: false,
    });
  });

  it('says research is unavailable, with each source’s reason, without failing', async () => {
    const { token } = await t.register();
    const r = await t.api('POST', '/research/search', { token, body: { query: 'irrigation' } });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ available: false, results: [] });
    // The reader's sentence names the services in plain words; the addresses and codes stay in `errors`.
    expect(r.body.detail).toMatch(/^Could not reach arXiv, PubMed and Semantic Scholar: [a-z ,]+\.$/);
    expect(r.body.errors.map((e: { source: string }) => e.source)).toEqual(['arxiv', 'pubmed', 'semantic_scholar']);
    const p = await t.api('GET', '/research/papers?query=irrigation', { token });
    expect(p.body).toMatchObject({ papers: [], available: false });
  });
});

describe('the default providers', () => {
  let t: TestServer;
  beforeAll(async () => {
    t = await startTestServer({ researchEnabled: false, espeakPath: '/nonexistent/espeak-ng' });
  });
  afterAll(() => t.close());

  it('honour RESEARCH_ENABLED=false and list the offline model', async () => {
    const { token } = await t.register();
    const r = await t.api('POST', '/research/search', { token, body: { query: 'irrigation' } });
    expect(r.body).toMatchObject({
      available: false,
      errors: [{ source: 'research', message: expect.stringContaining('RESEARCH_ENABLED=false') }],
    });
    const models = await t.api('GET', '/models/', { token });
    expect(models.body).toEqual([
      { name: 'offline', provider: 'offline', label: 'Built-in offline model (no LLM)', offline: true },
    ]);
    expect((await t.api('POST', '/api/tts/speak', { token, body: { text: 'x' } })).status).toBe(503);
  });
});
