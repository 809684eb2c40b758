import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../../server/config';
import { createTranscription } from '../../../server/providers';
import { createOpenAiTranscriptionProvider } from '../../../server/providers/transcription/openai';
import { closedPort, sendJson, sleep, startLoopback } from '../../support/loopback';
import { makeWav, parseForm } from './wav';

// A fake OpenAI-compatible transcription server (whisper.cpp / faster-whisper style).
let close: (() => Promise<void>) | null = null;
afterEach(async () => {
  await close?.();
  close = null;
});
let dir = '';
let audioPath = '';
const audio = makeWav(300);
beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'agora-stt-'));
  audioPath = path.join(dir, '5f0c9a52-7c1e-4d7a-9a55-0d7b2b3c4d5e.wav');
  await writeFile(audioPath, audio);
});
afterAll(() => rm(dir, { recursive: true, force: true }));

const file = () => ({ path: audioPath, mimeType: 'audio/wav', fileName: path.basename(audioPath) });

describe('OpenAI-compatible transcription provider', () => {
  it('reads through TRANSCRIBE_BASE_URL with TRANSCRIBE_API_KEY and TRANSCRIBE_MODEL', async () => {
    const lb = await startLoopback(async (req, res) => {
      const form = await parseForm(req.body, req.headers['content-type']);
      sendJson(res, 200, { text: `model=${form.get('model')}` });
    });
    close = lb.close;
    const env = {
      DATA_DIR: dir,
      TRANSCRIBE_BASE_URL: lb.url,
      TRANSCRIBE_API_KEY: 'env-key',
      TRANSCRIBE_MODEL: 'base.en',
    };
    expect(await createTranscription(loadConfig(env)).transcribe(file())).toBe('model=base.en');
    expect(lb.requests[0].headers.authorization).toBe('Bearer env-key');
  });

  it('posts the file as multipart and returns the text', async () => {
    const lb = await startLoopback(async (req, res) => {
      if (req.url !== '/v1/audio/transcriptions') return sendJson(res, 404, { error: 'nope' });
      const form = await parseForm(req.body, req.headers['content-type']);
      const f = form.get('file') as File;
      const same = Buffer.from(await f.arrayBuffer()).equals(audio);
      sendJson(res, 200, {
        text: ` model=${form.get('model')} format=${form.get('response_format')} name=${f.name} type=${f.type} same=${same} `,
      });
    });
    close = lb.close;
    const p = createOpenAiTranscriptionProvider({ baseUrl: lb.url, apiKey: 'stt-key' });
    expect(p.available()).toBe(true);
    const text = await p.transcribe(file());
    expect(text).toBe(
      'model=whisper-1 format=json name=5f0c9a52-7c1e-4d7a-9a55-0d7b2b3c4d5e.wav type=audio/wav same=true',
    );
    expect(lb.requests[0].headers.authorization).toBe('Bearer stt-key');
    expect(await p.probe()).toMatchObject({ status: 'ok' });
  });

  it('reports HTTP errors, answers without text, a missing file, time-outs and an absent server', async () => {
    let mode = '400';
    const lb = await startLoopback(async (_req, res) => {
      if (mode === '400')
        return sendJson(res, 400, { error: { message: 'Invalid file format.', type: 'invalid_request_error' } });
      if (mode === 'notext') return sendJson(res, 200, { segments: [] });
      await sleep(2000);
      res.end();
    });
    close = lb.close;
    const p = createOpenAiTranscriptionProvider({ baseUrl: `${lb.url}/v1`, timeoutMs: 200 });
    await expect(p.transcribe(file())).rejects.toThrow('The transcription server answered 400: Invalid file format.');
    mode = 'notext';
    await expect(p.transcribe(file())).rejects.toThrow('The transcription server answered without a transcript');
    await expect(p.transcribe({ ...file(), path: path.join(dir, 'gone.wav') })).rejects.toThrow(
      'The audio file to transcribe is missing',
    );
    mode = 'slow';
    await expect(p.transcribe(file())).rejects.toThrow(
      `The transcription server at ${lb.url} did not answer within 0.2 s`,
    );
    const url = await closedPort();
    await expect(createOpenAiTranscriptionProvider({ baseUrl: url }).transcribe(file())).rejects.toThrow(
      `The transcription server at ${url} is not reachable (ECONNREFUSED)`,
    );
  });

  it('is none without TRANSCRIBE_BASE_URL or pocketsphinx, with the message the UI shows', async () => {
    const none = createTranscription(
      loadConfig({ DATA_DIR: dir, POCKETSPHINX_PATH: '/nonexistent/pocketsphinx_continuous' }),
    );
    expect(none.available()).toBe(false);
    await expect(none.transcribe(file())).rejects.toThrow('No transcription engine configured');
    expect(createTranscription(loadConfig({ DATA_DIR: dir, TRANSCRIBE_BASE_URL: 'http://127.0.0.1:9' })).id).toBe(
      'openai-transcription',
    );
  });
});
