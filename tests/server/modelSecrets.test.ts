import { mkdtemp, readdir, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeOpenAi } from '../support/fakeModelServers';
import { startFakeSpeech } from '../support/fakeSpeechServers';
import { startServerProcess, type ServerProcess } from './serverProcess';

// The secrets grep (docs/models.md → 'API keys'): a real server process with its own DATA_DIR (PGlite files on
// disk) and the most talkative log level is given an API key; afterwards no API answer, no log line and no file
// in DATA_DIR holds the key in plain text (nor its base64, which is how a careless 'encryption' would look).

const KEY = 'sk-live-SECRET-7hQ2mZ9xVb4Nw8Kc3Rt6Yp1L';
/** A speech connection's key, kept the same way (Models → Speech). */
const SPEECH_KEY = 'sk-speech-SECRET-Qe4Tb8Lm2Wx6Zr9Pd3Hn';
const encodings = [KEY, SPEECH_KEY].flatMap((k) => [
  k,
  Buffer.from(k).toString('base64'),
  Buffer.from(k).toString('hex'),
]);

async function* files(dir: string): AsyncGenerator<string> {
  for (const e of await readdir(dir, { withFileTypes: true })) {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) yield* files(p);
    else if (e.isFile()) yield p;
  }
}

describe('API keys of model connections', () => {
  let dataDir: string;
  let server: ServerProcess;
  let fake: Awaited<ReturnType<typeof startFakeOpenAi>>;
  let speech: Awaited<ReturnType<typeof startFakeSpeech>>;
  const answers: string[] = [];

  beforeAll(async () => {
    dataDir = await mkdtemp(path.join(tmpdir(), 'agora-secrets-'));
    fake = await startFakeOpenAi({ apiKey: KEY });
    speech = await startFakeSpeech({ kind: 'openai', apiKey: SPEECH_KEY });
    server = await startServerProcess({ DATA_DIR: dataDir, LOG_LEVEL: 'trace', SECRETS_KEY: '' });
  }, 90_000);
  afterAll(async () => {
    await server?.kill();
    await fake?.close();
    await speech?.close();
    await rm(dataDir, { recursive: true, force: true });
  });

  const call = async (method: string, p: string, token?: string, body?: unknown) => {
    const res = await fetch(server.url + p, {
      method,
      headers: {
        ...(token ? { authorization: `Bearer ${token}` } : {}),
        ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
      },
      body: body !== undefined ? JSON.stringify(body) : undefined,
    });
    const text = await res.text();
    answers.push(text);
    return { status: res.status, body: text ? JSON.parse(text) : null };
  };

  it('are in no API answer, log line or file of DATA_DIR', { timeout: 90_000 }, async () => {
    const reg = await call('POST', '/auth/register', undefined, {
      email: 'secrets@example.com',
      password: 'secret-pass',
    });
    const token = reg.body.access_token as string;
    const created = await call('POST', '/model-connections', token, {
      kind: 'openai',
      preset: 'openai',
      name: 'Paid',
      base_url: fake.url,
      api_key: KEY,
    });
    expect(created.status).toBe(201);
    expect(created.body.status.state).toBe('reachable');
    const id = created.body.id as string;
    await call('GET', '/model-connections', token);
    await call('GET', '/models/', token);
    await call('POST', '/model-connections/test', token, { kind: 'openai', base_url: fake.url, api_key: KEY });
    await call('POST', '/model-connections/test', token, { kind: 'openai', base_url: fake.url, id });
    // Failures and refusals that might quote what they were given.
    await call('POST', '/model-connections', token, { kind: 'openai', name: 'Paid', base_url: fake.url, api_key: KEY });
    await call('POST', '/model-connections', token, { kind: 'openai', name: 'Bad', base_url: 'ftp://x', api_key: KEY });
    await call('PATCH', `/model-connections/${id}`, token, { api_key: KEY, name: 'Paid 2' });
    const agent = await call('POST', '/agents/', token, {
      name: 'Ada',
      role: 'Analyst',
      prompt: 'Think.',
      model: `@${id}/fake-gpt-mini`,
    });
    expect(agent.status).toBe(201);
    await call('GET', '/agents/', token);
    await call('GET', '/debug/info', token);
    await call('GET', '/health', token);
    // The key went to the model server, so the connection really used it.
    expect(fake.seen.some((s) => s.headers.authorization === `Bearer ${KEY}`)).toBe(true);

    // A speech connection's key: saved, tested, refused in a duplicate, changed, listed — and a sample spoken.
    const voice = await call('POST', '/speech-connections', token, {
      kind: 'openai',
      name: 'Paid speech',
      base_url: speech.url,
      api_key: SPEECH_KEY,
      model: 'tts-1',
    });
    expect(voice.status).toBe(201);
    expect(voice.body.status.state).toBe('reachable');
    await call('POST', '/speech-connections/test', token, {
      kind: 'openai',
      base_url: speech.url,
      api_key: SPEECH_KEY,
    });
    await call('POST', '/speech-connections', token, {
      kind: 'openai',
      name: 'Paid speech',
      base_url: speech.url,
      api_key: SPEECH_KEY,
    });
    await call('POST', '/speech-connections/test', token, { kind: 'openai', base_url: 'ftp://x', api_key: SPEECH_KEY });
    await call('PATCH', `/speech-connections/${voice.body.id}`, token, { api_key: SPEECH_KEY, name: 'Paid speech 2' });
    await call('GET', '/speech-connections', token);

    await server.kill();
    for (const a of answers) for (const e of encodings) expect(a).not.toContain(e);
    const log = server.output();
    expect(log.length).toBeGreaterThan(0);
    for (const e of encodings) expect(log).not.toContain(e);

    const keyFile = path.join(dataDir, 'secrets-key');
    expect((await stat(keyFile)).mode & 0o777).toBe(0o600);
    let scanned = 0;
    for await (const f of files(dataDir)) {
      const bytes = await readFile(f);
      scanned += bytes.length;
      for (const e of encodings)
        expect(bytes.includes(Buffer.from(e)), `${path.relative(dataDir, f)} holds the key`).toBe(false);
    }
    expect(scanned).toBeGreaterThan(100_000);
  });
});
