import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../../server/config';
import { createSpeech } from '../../../server/providers';
import { fixWavSizes } from '../../../server/providers/speech/audioTypes';
import { createNoSpeech } from '../../../server/providers/speech/none';
import { createOpenAiSpeechProvider } from '../../../server/providers/speech/openai';
import { isTtsName, writeTtsAudio } from '../../../server/providers/speech/media';
import { closedPort, sendJson, sleep, startLoopback } from '../../support/loopback';
import { makeWav } from './wav';

// A fake OpenAI-compatible speech server: POST /v1/audio/speech answers audio bytes.
let close: (() => Promise<void>) | null = null;
afterEach(async () => {
  await close?.();
  close = null;
});
let dir = '';
beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'agora-speech-'));
});
afterAll(() => rm(dir, { recursive: true, force: true }));

async function fakeSpeech(answer?: (res: import('node:http').ServerResponse) => void | Promise<void>) {
  const lb = await startLoopback(async (req, res) => {
    if (req.url === '/v1/audio/speech' && req.method === 'POST') {
      if (answer) return answer(res);
      res.writeHead(200, { 'content-type': 'audio/wav' });
      return res.end(makeWav(400, true));
    }
    sendJson(res, 404, { detail: 'Not Found' });
  });
  close = lb.close;
  return lb;
}

describe('OpenAI-compatible speech provider', () => {
  it('sends OpenAI’s JSON body without a reference voice and returns the WAV with true sizes', async () => {
    const lb = await fakeSpeech();
    const p = createOpenAiSpeechProvider({ baseUrl: lb.url, apiKey: 'tts-key' });
    const out = await p.synthesize({ text: 'Hello there.', speed: 1.25, format: 'wav' });
    expect(out.mimeType).toBe('audio/wav');
    expect(out.extension).toBe('wav');
    expect(out.audio.length).toBe(844);
    expect(out.audio.readUInt32LE(4)).toBe(836);
    expect(out.audio.readUInt32LE(40)).toBe(800);
    const req = lb.requests[0];
    expect(req.headers.authorization).toBe('Bearer tts-key');
    expect(req.headers['content-type']).toBe('application/json');
    expect(req.json()).toEqual({
      model: 'tts-1',
      input: 'Hello there.',
      voice: 'alloy',
      speed: 1.25,
      response_format: 'wav',
    });
  });

  it('names the file after what the server sent (mp3)', async () => {
    const lb = await fakeSpeech((res) => {
      res.writeHead(200, { 'content-type': 'audio/mpeg' });
      res.end(Buffer.from([0xff, 0xfb, 0x90, 0x64, 0, 0, 0, 0]));
    });
    const out = await createOpenAiSpeechProvider({ baseUrl: lb.url }).synthesize({ text: 'x', format: 'mp3' });
    expect(out).toMatchObject({ mimeType: 'audio/mpeg', extension: 'mp3' });
  });

  it('reports failures clearly: HTTP errors, non-audio answers, time-outs, no server', async () => {
    let mode = '500';
    const lb = await fakeSpeech(async (res) => {
      if (mode === '500') return sendJson(res, 500, { detail: 'CUDA out of memory' });
      if (mode === 'json') return sendJson(res, 200, { audio: 'base64…' });
      await sleep(2000);
      res.end();
    });
    const p = createOpenAiSpeechProvider({ baseUrl: lb.url, timeoutMs: 200 });
    await expect(p.synthesize({ text: 'x' })).rejects.toThrow('The speech server answered 500: CUDA out of memory');
    mode = 'json';
    await expect(p.synthesize({ text: 'x' })).rejects.toThrow(
      'The speech server answered application/json instead of audio',
    );
    mode = 'slow';
    await expect(p.synthesize({ text: 'x' })).rejects.toThrow(
      `The speech server at ${lb.url} did not answer within 0.2 s`,
    );
    const url = await closedPort();
    const gone = createOpenAiSpeechProvider({ baseUrl: url });
    await expect(gone.synthesize({ text: 'x' })).rejects.toThrow(
      `The speech server at ${url} is not reachable (ECONNREFUSED)`,
    );
    expect(await gone.probe()).toMatchObject({ status: 'unavailable' });
    expect(await p.probe()).toMatchObject({ status: 'ok' });
  });
});

describe('no speech engine', () => {
  it('is unavailable and says so', async () => {
    const none = createNoSpeech();
    expect(none.available()).toBe(false);
    await expect(none.synthesize({ text: 'x' })).rejects.toThrow('No speech engine configured');
    expect(await none.probe()).toMatchObject({ status: 'disabled', detail: 'No speech engine configured' });
  });
});

describe('choosing the speech engine', () => {
  const config = (over: Record<string, string>) => loadConfig({ DATA_DIR: dir, ...over });
  it('prefers TTS_BASE_URL, then espeak-ng, then none', async () => {
    expect(createSpeech(config({ TTS_BASE_URL: 'http://127.0.0.1:1', ESPEAK_PATH: '/bin/sh' })).id).toBe(
      'openai-speech',
    );
    expect(createSpeech(config({ ESPEAK_PATH: '/bin/sh' })).id).toBe('espeak');
    expect(createSpeech(config({ ESPEAK_PATH: path.join(dir, 'no-such-espeak') })).id).toBe('none');
  });

  it('speaks through TTS_BASE_URL with TTS_API_KEY, TTS_MODEL and TTS_VOICE, as the server’s own connection', async () => {
    const lb = await fakeSpeech();
    const env = { TTS_BASE_URL: lb.url, TTS_API_KEY: 'env-key', TTS_MODEL: 'kokoro', TTS_VOICE: 'af_bella' };
    await createSpeech(config(env)).synthesize({ text: 'Hi.' });
    expect(lb.requests[0].headers.authorization).toBe('Bearer env-key');
    expect(lb.requests[0].json()).toMatchObject({ model: 'kokoro', voice: 'af_bella', input: 'Hi.' });
  });
});

describe('stored speech clips', () => {
  it('are written under <media>/tts with an unguessable name and a /media/tts/ URL', async () => {
    const a = await writeTtsAudio(dir, makeWav(10), 'wav');
    const b = await writeTtsAudio(dir, makeWav(10), 'wav');
    expect(a.filename).not.toBe(b.filename);
    expect(isTtsName(a.filename)).toBe(true);
    expect(a.url).toBe(`/media/tts/${a.filename}`);
    expect(a.path).toBe(path.join(dir, 'tts', a.filename));
    for (const bad of ['../x.wav', 'a/b.wav', '.wav', 'x.exe', 'x.wav.sh']) expect(isTtsName(bad)).toBe(false);
  });

  it('fixes the placeholder sizes of a streamed WAV and leaves other data alone', () => {
    const fixed = fixWavSizes(makeWav(50, true));
    expect(fixed.readUInt32LE(4)).toBe(fixed.length - 8);
    expect(fixed.readUInt32LE(40)).toBe(100);
    const mp3 = Buffer.from([0xff, 0xfb, 1, 2]);
    expect(fixWavSizes(Buffer.from(mp3)).equals(mp3)).toBe(true);
  });
});
