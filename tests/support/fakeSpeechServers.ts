import { spawn } from 'node:child_process';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

// Loopback speech servers speaking the protocols the README's 'Voices' section names, exactly as those servers do,
// and answering real WAV made by espeak-ng (each voice name at its own pitch and speed, so voices sound apart):
//   - Chatterbox TTS API: POST /v1/audio/speech {input, voice, exaggeration, cfg_weight, temperature}, the voice
//     library GET/POST /v1/voices (multipart voice_file + voice_name), DELETE /v1/voices/{name}, and the one-off
//     POST /v1/audio/speech/upload (multipart with voice_file). Errors as {error: {message, type}}.
//   - Kokoro-FastAPI: GET /v1/audio/voices {voices: [...]}, POST /v1/audio/speech (OpenAI's body).
//   - OpenAI: POST /v1/audio/speech {model, input, voice, speed, response_format} with a bearer key; no voice list.

export interface SpeechCall {
  path: string;
  voice: string | null;
  input: string;
  /** The one-off clone's recording, when the request carried one. */
  uploadedBytes: number;
}

export interface FakeSpeechOptions {
  kind: 'chatterbox' | 'kokoro' | 'openai';
  apiKey?: string;
  /** Chatterbox without its voice library (an older release): /v1/voices answers 404. */
  noLibrary?: boolean;
  /** Stock voices (Kokoro) or the library's first voices (Chatterbox). */
  voices?: string[];
  /** Waits this long before every speech answer (a slow server). */
  speechDelayMs?: number;
  /** Longest `input` accepted (Chatterbox's MAX_TOTAL_LENGTH is 3000). */
  maxChars?: number;
  /** Recordings smaller than this are refused as too short. */
  minRecordingBytes?: number;
}

const KOKORO_VOICES = [
  'af_alloy',
  'af_bella',
  'af_heart',
  'af_nicole',
  'af_sky',
  'am_adam',
  'am_echo',
  'am_michael',
  'bf_emma',
  'bf_isabella',
  'bm_george',
  'bm_lewis',
];
const OPENAI_VOICES = ['alloy', 'echo', 'fable', 'onyx', 'nova', 'shimmer'];
const AUDIO_MAGIC = [
  Buffer.from('RIFF'),
  Buffer.from('OggS'),
  Buffer.from([0x1a, 0x45, 0xdf, 0xa3]),
  Buffer.from('ID3'),
  Buffer.from('fLaC'),
];

const hash = (s: string) => [...s].reduce((h, c) => (h * 31 + c.charCodeAt(0)) >>> 0, 7);

/** espeak-ng's WAV for `text`, pitched by the voice's name. */
export function espeakWav(text: string, voice: string): Promise<Buffer> {
  const h = hash(voice);
  const args = ['--stdout', '-p', String(10 + (h % 80)), '-s', String(150 + (h % 60))];
  return new Promise((resolve, reject) => {
    const child = spawn('espeak-ng', args, { stdio: ['pipe', 'pipe', 'ignore'] });
    const out: Buffer[] = [];
    child.stdout.on('data', (d: Buffer) => out.push(d));
    child.on('error', reject);
    child.on('close', (code) =>
      code === 0 ? resolve(Buffer.concat(out)) : reject(new Error(`espeak-ng exit ${code}`)),
    );
    child.stdin.end(`${text.replace(/\s+/g, ' ').slice(0, 400)}\n`);
  });
}

const readBody = (req: IncomingMessage) =>
  new Promise<Buffer>((resolve) => {
    const parts: Buffer[] = [];
    req.on('data', (d: Buffer) => parts.push(d));
    req.on('end', () => resolve(Buffer.concat(parts)));
  });

const json = (res: ServerResponse, status: number, body: unknown) => {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify(body));
};
const fail = (res: ServerResponse, status: number, message: string, type = 'invalid_request_error') =>
  json(res, status, { error: { message, type } });

export async function startFakeSpeech(opts: FakeSpeechOptions) {
  const calls: SpeechCall[] = [];
  const library = new Map<string, number>();
  const added: string[] = [];
  const deleted: string[] = [];
  for (const v of opts.kind === 'chatterbox' ? (opts.voices ?? []) : []) library.set(v, 0);
  const stock = opts.kind === 'kokoro' ? (opts.voices ?? KOKORO_VOICES) : OPENAI_VOICES;
  const maxChars = opts.maxChars ?? (opts.kind === 'chatterbox' ? 3000 : 4096);
  const minBytes = opts.minRecordingBytes ?? 2000;
  const waiting = new Set<() => void>();

  const formOf = async (req: IncomingMessage, body: Buffer) =>
    new Response(new Uint8Array(body), {
      headers: { 'content-type': String(req.headers['content-type'] ?? '') },
    }).formData();

  const speak = async (res: ServerResponse, call: SpeechCall) => {
    if (!call.input.trim()) return fail(res, 400, 'Input text is required');
    if (call.input.length > maxChars)
      return fail(res, 400, `Input text too long. Maximum ${maxChars} characters allowed.`);
    if (opts.speechDelayMs) {
      await new Promise<void>((r) => {
        const t = setTimeout(() => (waiting.delete(done), r()), opts.speechDelayMs);
        const done = () => (clearTimeout(t), r());
        waiting.add(done);
      });
      if (res.destroyed || res.writableEnded) return;
    }
    calls.push(call);
    const wav = await espeakWav(call.input, call.voice ?? 'uploaded');
    res.writeHead(200, { 'content-type': 'audio/wav', 'content-length': wav.length });
    res.end(wav);
  };

  const server = createServer(async (req, res) => {
    const url = new URL(req.url ?? '/', 'http://fake');
    const p = url.pathname;
    if (opts.apiKey && req.headers.authorization !== `Bearer ${opts.apiKey}`)
      return fail(res, 401, 'Incorrect API key provided', 'invalid_api_key');
    const body = await readBody(req);
    try {
      if (p === '/v1/audio/voices' && req.method === 'GET' && opts.kind === 'kokoro')
        return json(res, 200, { voices: stock });
      if (p === '/v1/voices' && opts.kind === 'chatterbox' && !opts.noLibrary) {
        if (req.method === 'GET') {
          const voices = [...library.keys()].map((name) => ({
            name,
            filename: `${name}.wav`,
            file_size: library.get(name),
          }));
          return json(res, 200, { voices, count: voices.length });
        }
        if (req.method === 'POST') {
          const form = await formOf(req, body).catch(() => null);
          const name = form?.get('voice_name');
          const file = form?.get('voice_file');
          if (typeof name !== 'string' || !name.trim()) return fail(res, 422, 'voice_name is required');
          if (!(file instanceof Blob)) return fail(res, 422, 'voice_file is required');
          if (/[/\\:*?"<>|]/.test(name)) return fail(res, 400, `Invalid voice name: ${name}`);
          const data = Buffer.from(await file.arrayBuffer());
          if (!AUDIO_MAGIC.some((m) => data.subarray(0, m.length).equals(m))) {
            return fail(res, 400, 'Unsupported audio format. Supported formats: .mp3, .wav, .flac, .m4a, .ogg');
          }
          if (data.length < minBytes)
            return fail(res, 400, 'Audio file is too short: use at least a few seconds of speech');
          if (library.has(name)) return fail(res, 409, `Voice '${name}' already exists`, 'voice_exists_error');
          library.set(name, data.length);
          added.push(name);
          return json(res, 201, {
            message: `Voice '${name}' uploaded successfully`,
            voice: { name, file_size: data.length },
          });
        }
      }
      const del = /^\/v1\/voices\/(.+)$/.exec(p);
      if (del && req.method === 'DELETE' && opts.kind === 'chatterbox' && !opts.noLibrary) {
        const name = decodeURIComponent(del[1]);
        if (!library.delete(name)) return fail(res, 404, `Voice '${name}' not found`, 'voice_not_found_error');
        deleted.push(name);
        return json(res, 200, { message: `Voice '${name}' deleted successfully` });
      }
      if (p === '/v1/audio/speech' && req.method === 'POST') {
        let b: { input?: unknown; voice?: unknown };
        try {
          b = JSON.parse(body.toString('utf8'));
        } catch {
          return fail(res, 422, 'Body must be JSON');
        }
        const voice = typeof b.voice === 'string' ? b.voice : null;
        const input = typeof b.input === 'string' ? b.input : '';
        if (opts.kind === 'chatterbox') {
          // Chatterbox takes OpenAI's names (its default voice) or a voice of its library.
          if (voice && !OPENAI_VOICES.includes(voice) && !library.has(voice)) {
            return fail(
              res,
              404,
              `Voice '${voice}' not found in voice library. Use /voices endpoint to list available voices.`,
              'voice_not_found_error',
            );
          }
        } else if (voice && !stock.includes(voice.split('+')[0])) return fail(res, 400, `Voice '${voice}' not found`);
        return await speak(res, { path: p, voice, input, uploadedBytes: 0 });
      }
      if (p === '/v1/audio/speech/upload' && req.method === 'POST' && opts.kind === 'chatterbox') {
        const form = await formOf(req, body).catch(() => null);
        const file = form?.get('voice_file');
        const input = form?.get('input');
        const uploaded = file instanceof Blob ? (await file.arrayBuffer()).byteLength : 0;
        return await speak(res, {
          path: p,
          voice: null,
          input: typeof input === 'string' ? input : '',
          uploadedBytes: uploaded,
        });
      }
      return fail(res, 404, 'Not Found');
    } catch (e) {
      if (!res.headersSent) fail(res, 500, (e as Error).message, 'server_error');
    }
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    calls,
    library,
    added,
    deleted,
    close: () =>
      new Promise<void>((r) => {
        for (const done of waiting) done();
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}
export type FakeSpeech = Awaited<ReturnType<typeof startFakeSpeech>>;
