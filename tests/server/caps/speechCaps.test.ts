import { readdir } from 'node:fs/promises';
import path from 'node:path';
import type { ServerResponse } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { speechConnectionList } from '../../../src/schemas/speechConnections';
import { makeWav } from '../audioFixtures';
import { createAgent, upload } from '../audioFixtures';
import { sendJson, startLoopback } from '../../support/loopback';
import { startTestServer, type TestServer } from '../harness';

// The caps the model connections have, held by the speech connections too (issue 41's findings 1–8), against a
// loopback voice server speaking OpenAI's and the Chatterbox API's paths: audio answers and voice lists cut at the
// cap while they stream, the TTS quota on samples, Test and Save rate limits, connections per user, the operator's
// address kept from other users, keys never quoted back, and a Test that says only what the server answered.

/** A key no credential pattern recognises: only masking the connection's own key hides it. */
const KEY = 'Zq8uVb4Jm2Lk9Pw7Rt5YxCv3';
const MB = 1024 * 1024;
/** A real WAV of about 600 KB (the quota test's clip). */
const CLIP = makeWav(300_000);

/** Writes `total` bytes in 64 KB pieces, waiting for the socket, and stops when the reader hangs up. */
async function stream(res: ServerResponse, total: number, contentType: string, sent: { bytes: number }) {
  res.writeHead(200, { 'content-type': contentType });
  const piece = Buffer.alloc(64 * 1024, 0x20);
  while (sent.bytes < total && !res.destroyed) {
    sent.bytes += piece.length;
    if (!res.write(piece)) await new Promise((r) => res.once('drain', r).once('close', r));
  }
  res.end();
}

let t: TestServer;
let voices: Awaited<ReturnType<typeof startLoopback>>;
const sent = { list: { bytes: 0 }, audio: { bytes: 0 } };
let operator: { token: string };

beforeAll(async () => {
  voices = await startLoopback(async (req, res) => {
    const p = req.url.split('?')[0];
    // /big-list: a Chatterbox whose voice list is 64 MB.
    if (p === '/big-list/v1/voices') return stream(res, 64 * MB, 'application/json', sent.list);
    // /big-audio: an OpenAI speech server whose every answer is 64 MB of "audio".
    if (p === '/big-audio/v1/audio/voices') return sendJson(res, 200, { voices: ['af_bella'] });
    if (p === '/big-audio/v1/audio/speech') return stream(res, 64 * MB, 'audio/wav', sent.audio);
    // /clip: a Kokoro whose every answer is CLIP.
    if (p === '/clip/v1/audio/voices') return sendJson(res, 200, { voices: ['af_bella'] });
    if (p === '/clip/v1/audio/speech') {
      res.writeHead(200, { 'content-type': 'audio/wav', 'content-length': CLIP.length });
      return res.end(CLIP);
    }
    // /quote: a server that quotes the key it was sent in every refusal.
    if (p.startsWith('/quote/')) {
      if (p === '/quote/v1/voices' && req.method === 'GET') return sendJson(res, 200, { voices: [{ name: 'v1' }] });
      if (p === '/quote/v1/audio/voices') return sendJson(res, 200, { voices: ['v1'] });
      const key = String(req.headers.authorization ?? '').replace(/^Bearer /, '');
      return sendJson(res, 400, { error: { message: `This server does not take the key ${key} for that` } });
    }
    // /nolist: speaks (a body without input is refused as real servers refuse it), lists no voices.
    if (p === '/nolist/v1/audio/speech' && req.method === 'POST')
      return sendJson(res, 400, { error: { message: 'input is required' } });
    // /none: answers, but has no speech endpoint at all.
    return sendJson(res, 404, { detail: 'Not Found' });
  });
  t = await startTestServer({
    ttsQuotaMb: 1,
    ttsBaseUrl: `${voices.url}/clip`,
    maxConnectionsPerUser: 3,
    modelTestRateLimit: 4,
    modelListMaxBytes: 100_000,
    voiceAudioMaxBytes: MB,
  });
  operator = await t.register();
}, 60_000);
afterAll(() => Promise.all([t.close(), voices.close()]));

const add = (token: string, body: object) => t.api('POST', '/speech-connections', { token, body });
const test = (token: string, body: object) => t.api('POST', '/speech-connections/test', { token, body });
const sample = (token: string, id: string) =>
  t.api('POST', `/speech-connections/${id}/sample`, { token, body: { voice: 'af_bella' } });
const clips = async () => readdir(path.join(t.server.ctx.config.mediaDir, 'tts')).catch(() => [] as string[]);

describe('speech connections hold the same caps as model connections', () => {
  it('(1) a voice server’s 64 MB answer is cut at VOICE_AUDIO_MAX_BYTES while it streams, and nothing is stored', async () => {
    const { token } = await t.register();
    const c = (await add(token, { kind: 'openai', name: 'Big', base_url: `${voices.url}/big-audio` })).body;
    const before = await clips();
    const r = await sample(token, c.id);
    expect(r.status).toBe(502);
    expect(r.body.detail).toContain('VOICE_AUDIO_MAX_BYTES');
    expect(sent.audio.bytes).toBeLessThan(16 * MB);
    expect(await clips()).toEqual(before);
  });

  it('(2) samples count against TTS_QUOTA_MB and stop at it', async () => {
    const { token } = await t.register();
    const c = (await add(token, { kind: 'openai', name: 'Clip', base_url: `${voices.url}/clip` })).body;
    expect((await sample(token, c.id)).status).toBe(200);
    expect((await sample(token, c.id)).status).toBe(200);
    const over = await sample(token, c.id);
    expect(over.status).toBe(429);
    expect(over.body.detail).toContain('TTS_QUOTA_MB');
  });

  it('(3) Test is rate-limited per user', async () => {
    const { token } = await t.register();
    const codes: number[] = [];
    for (let i = 0; i < 6; i++)
      codes.push((await test(token, { kind: 'openai', base_url: `${voices.url}/clip` })).status);
    expect(codes.slice(0, 4)).toEqual([200, 200, 200, 200]);
    expect(codes.slice(4)).toEqual([429, 429]);
  });

  it('(4) a 64 MB voice list is cut at MODEL_LIST_MAX_BYTES while it streams', async () => {
    const { token } = await t.register();
    const r = (await test(token, { kind: 'chatterbox', base_url: `${voices.url}/big-list` })).body;
    expect(r).toMatchObject({
      ok: false,
      reason: 'not_compatible',
      detail: expect.stringContaining('MODEL_LIST_MAX_BYTES'),
    });
    expect(sent.list.bytes).toBeLessThan(16 * MB);
  });

  it('(5) a user has at most MAX_CONNECTIONS_PER_USER speech connections', async () => {
    const { token } = await t.register();
    for (const name of ['a', 'b', 'c'])
      expect((await add(token, { kind: 'openai', name, base_url: `${voices.url}/clip` })).status).toBe(201);
    const fourth = await add(token, { kind: 'openai', name: 'd', base_url: `${voices.url}/clip` });
    expect(fourth.status).toBe(409);
    expect(fourth.body.detail).toContain('MAX_CONNECTIONS_PER_USER=3');
  });

  it('(6) the server’s own speech address is the operator’s to see', async () => {
    const list = async (token: string) =>
      speechConnectionList
        .parse((await t.api('GET', '/speech-connections', { token })).body)
        .connections.find((c) => c.id === 'server-speech');
    const { token } = await t.register();
    expect((await list(token))?.base_url).toBe('');
    expect(JSON.stringify((await t.api('GET', '/speech-connections', { token })).body)).not.toContain(voices.url);
    expect((await list(operator.token))?.base_url).toBe(`${voices.url}/clip`);
  });

  it('(7) a key the voice server quotes back is masked in sample and clone errors', async () => {
    const { token } = await t.register();
    const oc = (await add(token, { kind: 'openai', name: 'Q1', base_url: `${voices.url}/quote`, api_key: KEY })).body;
    const s = await sample(token, oc.id);
    expect(s.status).toBe(502);
    expect(s.body.detail).toContain('does not take the key');
    expect(JSON.stringify(s.body)).not.toContain(KEY);

    const cc = (await add(token, { kind: 'chatterbox', name: 'Q2', base_url: `${voices.url}/quote`, api_key: KEY }))
      .body;
    const agent = await createAgent(t, token, 'Ida');
    expect((await upload(t, token, agent.id, makeWav(16_000), 'ref.wav', { name: 'Ida reading' })).status).toBe(201);
    const r = await t.api('PUT', `/agents/${agent.id}/voice`, {
      token,
      body: { connection_id: cc.id, mode: 'clone', consent: true },
    });
    expect(r.status).toBe(422);
    expect(r.body.detail).toContain('does not take the key');
    expect(JSON.stringify(r.body)).not.toContain(KEY);
  });
});

describe('(8) a speech Test reports only what the server answered', () => {
  it('a server with no speech endpoints is not a voice server, of either kind', async () => {
    const { token } = await t.register();
    for (const kind of ['chatterbox', 'openai']) {
      const r = (await test(token, { kind, base_url: `${voices.url}/none` })).body;
      expect(r).toMatchObject({ ok: false, reason: 'not_compatible' });
      expect(r.detail).toMatch(/no speech/i);
    }
  });

  it('a server that does not list its voices lists none', async () => {
    const { token } = await t.register();
    const r = (await test(token, { kind: 'openai', base_url: `${voices.url}/nolist` })).body;
    expect(r).toMatchObject({ ok: true, lists_voices: false, voices: [], summary: 'does not list its voices' });
    const c = (await test(token, { kind: 'chatterbox', base_url: `${voices.url}/nolist` })).body;
    expect(c).toMatchObject({ ok: true, lists_voices: false, can_clone: false, voices: [] });
  });
});
