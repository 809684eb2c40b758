import { readdir, readFile, stat } from 'node:fs/promises';
import http from 'node:http';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { audioList, audioUploadResponse, batchTranscribeResponse, transcribeResponse } from '../../src/schemas/audio';
import { AUDIO_MAX_BYTES } from '../../src/schemas/constants';
import { AUDIO_MESSAGES } from '../../src/schemas/messages';
import { sniffAudio } from '../../server/audio/sniff';
import { AUDIO_SAMPLES, BARE_MP3, createAgent, ELF, makeWav, MZ, providersWith, upload } from './audioFixtures';
import { startTestServer, type TestServer } from './harness';

const storedFiles = async (s: TestServer) =>
  (await readdir(path.join(s.server.ctx.config.mediaDir, 'audio')).catch(() => [] as string[])).sort();
const fileOf = (url: string) => url.split('?')[0].split('/').pop()!;

/** A raw request, so the path is sent exactly as written (fetch would normalise '..'). */
function rawGet(base: string, p: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const u = new URL(base);
    http
      .get({ host: u.hostname, port: u.port, path: p }, (res) => {
        res.resume();
        resolve(res.statusCode ?? 0);
      })
      .on('error', reject);
  });
}

describe('reference audio with no transcription engine', () => {
  let s: TestServer;
  let token: string;
  beforeAll(async () => {
    s = await startTestServer({
      transcribeBaseUrl: undefined,
      pocketsphinxPath: '/nonexistent/pocketsphinx_continuous',
    });
    ({ token } = await s.register());
  });
  afterAll(() => s.close());

  it('accepts each audio kind by its content, stores it under a server-made name and still succeeds untranscribed', async () => {
    const agent = await createAgent(s, token);
    for (const [ext, sample] of Object.entries(AUDIO_SAMPLES)) {
      const r = await upload(s, token, agent.id, sample.bytes, `sample.${ext}`, {
        name: ` My ${ext} `,
        auto_transcribe: 'true',
      });
      expect(r.status, `${ext}: ${JSON.stringify(r.body)}`).toBe(201);
      const item = audioUploadResponse.parse(r.body);
      expect(item).toMatchObject({
        name: `My ${ext}`,
        agent_id: agent.id,
        transcript: null,
        transcription_error: AUDIO_MESSAGES.noTranscriptionEngine,
      });
      expect(fileOf(item.audio_url)).toMatch(new RegExp(`^[0-9a-f-]{36}\\.${ext}$`));
      const media = await s.api('GET', item.audio_url);
      expect(media.status).toBe(200);
      expect(media.headers.get('content-type')).toBe(sample.mime);
      expect(Number(media.headers.get('content-length'))).toBe(sample.bytes.length);
    }
    // The name a client gives is not trusted either way: wav bytes called .mp3 are a wav.
    const r = await upload(s, token, agent.id, AUDIO_SAMPLES.wav.bytes, 'lying.mp3');
    expect(fileOf(r.body.audio_url)).toMatch(/\.wav$/);
    const list = audioList.parse((await s.api('GET', `/agents/${agent.id}/audio`, { token })).body);
    expect(list).toHaveLength(7);
    expect(list.filter((a) => a.is_default).map((a) => a.name)).toEqual(['My wav']); // the first upload
  });

  it('rejects renamed executables and other non-audio by content, storing nothing', async () => {
    const agent = await createAgent(s, token);
    const before = await storedFiles(s);
    for (const [bytes, name] of [
      [ELF, 'x.wav'],
      [MZ, 'setup.mp3'],
      [Buffer.from('#!/bin/sh\nrm -rf /\n'), 'voice.ogg'],
      [Buffer.from('<html></html>'), 'a.flac'],
    ] as const) {
      const r = await upload(s, token, agent.id, bytes, name);
      expect(r, name).toMatchObject({ status: 415, body: { detail: AUDIO_MESSAGES.unsupportedType } });
    }
    expect(await storedFiles(s)).toEqual(before);
    expect((await s.api('GET', `/agents/${agent.id}/audio`, { token })).body).toEqual([]);
  });

  it('rejects a file over AUDIO_MAX_BYTES with 413 and leaves nothing behind', async () => {
    const agent = await createAgent(s, token);
    const before = await storedFiles(s);
    const big = Buffer.concat([makeWav(), Buffer.alloc(AUDIO_MAX_BYTES)]);
    const r = await upload(s, token, agent.id, big, 'big.wav');
    expect(r).toMatchObject({ status: 413, body: { detail: AUDIO_MESSAGES.tooLarge(AUDIO_MAX_BYTES / 1024 / 1024) } });
    expect(await storedFiles(s)).toEqual(before);
    // Exactly at the limit is fine.
    const edge = Buffer.concat([makeWav(), Buffer.alloc(AUDIO_MAX_BYTES - makeWav().length)]);
    expect((await upload(s, token, agent.id, edge, 'edge.wav')).status).toBe(201);
  });

  it('needs a name and a file', async () => {
    const agent = await createAgent(s, token);
    expect(await upload(s, token, agent.id, AUDIO_SAMPLES.wav.bytes, 'a.wav', {})).toMatchObject({
      status: 422,
      body: { detail: AUDIO_MESSAGES.nameAndFileRequired },
    });
    expect(await upload(s, token, agent.id, AUDIO_SAMPLES.wav.bytes, 'a.wav', { name: '   ' })).toMatchObject({
      status: 422,
      body: { detail: AUDIO_MESSAGES.nameAndFileRequired },
    });
    const noFile = new FormData();
    noFile.set('name', 'Voice');
    expect(await s.api('POST', `/agents/${agent.id}/audio`, { token, body: noFile })).toMatchObject({
      status: 422,
      body: { detail: AUDIO_MESSAGES.nameAndFileRequired },
    });
    expect((await upload(s, token, agent.id, Buffer.alloc(0), 'empty.wav')).status).toBe(422);
    expect((await s.api('POST', `/agents/${agent.id}/audio`, { token, body: { name: 'x' } })).status).toBe(415);
    expect(
      (await readdir(path.join(s.server.ctx.config.mediaDir, 'audio'))).filter((f) => f.startsWith('.upload-')),
    ).toEqual([]);
  });

  it('makes path-traversal names harmless', async () => {
    const agent = await createAgent(s, token);
    const r = await upload(s, token, agent.id, AUDIO_SAMPLES.wav.bytes, '../../etc/passwd.wav', {
      name: '../../etc/passwd',
    });
    expect(r.status).toBe(201);
    expect(r.body.name).toBe('../../etc/passwd'); // just a label
    const stored = fileOf(r.body.audio_url);
    expect(stored).toMatch(/^[0-9a-f-]{36}\.wav$/);
    expect((await stat(path.join(s.server.ctx.config.mediaDir, 'audio', stored))).isFile()).toBe(true);
    const media = s.server.ctx.config.mediaDir;
    expect((await readdir(media)).sort()).toEqual(['audio']);
    expect((await readdir(path.dirname(media))).sort()).toEqual(['media']);

    const key = r.body.audio_url.split('key=')[1];
    for (const p of [
      '/media/audio/../../etc/passwd',
      '/media/audio/..%2F..%2Fetc%2Fpasswd',
      '/media/audio/%2e%2e%2f%2e%2e%2fetc%2fpasswd',
      `/media/audio/..%2F${stored}`,
      `/media/audio/x/../../../etc/passwd?key=${key}`,
    ]) {
      expect(await rawGet(s.url, p), p).toBe(404);
    }
  });

  it('serves media with the right type and length to a key or the owner, refusing everyone else', async () => {
    const agent = await createAgent(s, token);
    const bytes = makeWav(500);
    const item = (await upload(s, token, agent.id, bytes, 'v.wav')).body;
    const bare = item.audio_url.split('?')[0];

    const res = await fetch(s.url + item.audio_url);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('audio/wav');
    expect(res.headers.get('content-length')).toBe(String(bytes.length));
    expect(Buffer.from(await res.arrayBuffer()).equals(bytes)).toBe(true);

    const head = await fetch(s.url + item.audio_url, { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(head.headers.get('content-type')).toBe('audio/wav');
    expect(head.headers.get('content-length')).toBe(String(bytes.length));
    expect((await head.arrayBuffer()).byteLength).toBe(0);

    const part = await fetch(s.url + item.audio_url, { headers: { range: 'bytes=4-11' } });
    expect(part.status).toBe(206);
    expect(part.headers.get('content-range')).toBe(`bytes 4-11/${bytes.length}`);
    expect(Buffer.from(await part.arrayBuffer()).equals(bytes.subarray(4, 12))).toBe(true);
    expect((await fetch(s.url + item.audio_url, { headers: { range: `bytes=${bytes.length}-` } })).status).toBe(416);

    expect((await s.api('GET', bare, { token })).status).toBe(200); // the owner's bearer token
    expect((await s.api('GET', bare)).status).toBe(401);
    expect((await s.api('GET', `${bare}?key=${'A'.repeat(43)}`)).status).toBe(404);
    expect((await s.api('GET', `${bare}?key=`)).status).toBe(401);
    const stranger = await s.register();
    expect((await s.api('GET', bare, { token: stranger.token })).status).toBe(404);
    expect((await s.api('GET', '/media/audio/00000000-0000-0000-0000-000000000000.wav?key=x')).status).toBe(404);
  });

  it('keeps exactly one default per agent', async () => {
    const agent = await createAgent(s, token);
    const other = await createAgent(s, token, 'Other');
    const otherItem = (await upload(s, token, other.id, AUDIO_SAMPLES.ogg.bytes, 'o.ogg')).body;
    const ids: string[] = [];
    for (const n of ['one', 'two', 'three'])
      ids.push((await upload(s, token, agent.id, AUDIO_SAMPLES.wav.bytes, `${n}.wav`, { name: n })).body.id);
    const defaults = async () =>
      (await s.api('GET', `/agents/${agent.id}/audio`, { token })).body
        .filter((a: { is_default: boolean }) => a.is_default)
        .map((a: { id: string }) => a.id);
    expect(await defaults()).toEqual([ids[0]]);
    for (const id of [ids[1], ids[2], ids[2], ids[0]]) {
      const r = await s.api('POST', `/agents/audio/${id}/set-default`, { token });
      expect(r).toMatchObject({ status: 200, body: { id, is_default: true } });
      expect(await defaults()).toEqual([id]);
    }
    // Another agent's default is untouched.
    expect((await s.api('GET', `/agents/${other.id}/audio`, { token })).body[0]).toMatchObject({
      id: otherItem.id,
      is_default: true,
    });
    const [{ n }] = await s.server.ctx.db.query<{ n: string }>(
      'SELECT count(*) AS n FROM audio_items WHERE agent_id = $1 AND is_default',
      [agent.id],
    );
    expect(Number(n)).toBe(1);
    expect(await s.api('POST', '/agents/audio/nope/set-default', { token })).toMatchObject({
      status: 404,
      body: { detail: 'Audio not found' },
    });
  });

  it('deletes an item and its file; losing the default promotes the newest remaining', async () => {
    const agent = await createAgent(s, token);
    const items = [];
    for (const n of ['first', 'second', 'third'])
      items.push((await upload(s, token, agent.id, AUDIO_SAMPLES.flac.bytes, 'f.flac', { name: n })).body);
    const file0 = path.join(s.server.ctx.config.mediaDir, 'audio', fileOf(items[0].audio_url));
    expect((await stat(file0)).isFile()).toBe(true);

    expect(await s.api('DELETE', `/agents/audio/${items[0].id}`, { token })).toMatchObject({
      status: 200,
      body: { success: true },
    });
    await expect(stat(file0)).rejects.toThrow();
    const left = (await s.api('GET', `/agents/${agent.id}/audio`, { token })).body;
    expect(left.map((a: { name: string; is_default: boolean }) => [a.name, a.is_default])).toEqual([
      ['third', true],
      ['second', false],
    ]);
    expect((await fetch(s.url + items[0].audio_url)).status).toBe(404);

    await s.api('DELETE', `/agents/audio/${items[1].id}`, { token }); // not the default: nothing changes
    expect((await s.api('GET', `/agents/${agent.id}/audio`, { token })).body).toMatchObject([
      { name: 'third', is_default: true },
    ]);
    expect((await s.api('DELETE', `/agents/audio/${items[1].id}`, { token })).status).toBe(404);
  });

  it('deletes an agent with its audio rows, files and connections in one go', async () => {
    const agent = await createAgent(s, token, 'Doomed');
    const friend = await createAgent(s, token, 'Friend');
    const items = [];
    for (const ext of ['wav', 'mp3'] as const)
      items.push((await upload(s, token, agent.id, AUDIO_SAMPLES[ext].bytes, `a.${ext}`)).body);
    const keep = (await upload(s, token, friend.id, AUDIO_SAMPLES.wav.bytes, 'k.wav')).body;
    await s.api('POST', '/connections/', { token, body: { from_agent_id: agent.id, to_agent_id: friend.id } });
    await s.api('POST', '/connections/', { token, body: { from_agent_id: friend.id, to_agent_id: agent.id } });

    const r = await s.api('DELETE', `/agents/${agent.id}`, { token });
    expect(r).toMatchObject({ status: 200, body: { audio_deleted: 2, connections_deleted: 2 } });
    const db = s.server.ctx.db;
    expect(await db.query('SELECT id FROM audio_items WHERE agent_id = $1', [agent.id])).toEqual([]);
    expect(
      await db.query('SELECT id FROM connections WHERE from_agent_id = $1 OR to_agent_id = $1', [agent.id]),
    ).toEqual([]);
    const files = await storedFiles(s);
    for (const it of items) expect(files).not.toContain(fileOf(it.audio_url));
    expect(files).toContain(fileOf(keep.audio_url));
    expect((await s.api('GET', `/agents/${agent.id}/audio`, { token })).status).toBe(404);
  });

  it('answers success false on /transcribe and refuses batch-transcribe without an engine', async () => {
    const agent = await createAgent(s, token);
    const item = (
      await upload(s, token, agent.id, AUDIO_SAMPLES.wav.bytes, 'a.wav', { name: 'n', auto_transcribe: 'false' })
    ).body;
    expect(item.transcription_error).toBeNull();
    const r = await s.api('POST', '/agents/audio/transcribe', { token, body: { audio_id: item.id } });
    expect(r.status).toBe(200);
    expect(transcribeResponse.parse(r.body)).toMatchObject({
      success: false,
      message: AUDIO_MESSAGES.noTranscriptionEngine,
    });
    expect(
      await s.api('POST', '/agents/audio/batch-transcribe', { token, body: { agent_id: agent.id } }),
    ).toMatchObject({ status: 503, body: { detail: AUDIO_MESSAGES.noTranscriptionEngine } });
    expect((await s.api('POST', '/agents/audio/transcribe', { token, body: {} })).status).toBe(422);
    expect((await s.api('POST', '/agents/audio/transcribe', { token, body: { audio_id: 'nope' } })).status).toBe(404);
  });

  it('needs a bearer token on every audio route', async () => {
    for (const [m, p] of [
      ['GET', '/agents/x/audio'],
      ['POST', '/agents/x/audio'],
      ['DELETE', '/agents/audio/x'],
      ['POST', '/agents/audio/x/set-default'],
      ['POST', '/agents/audio/transcribe'],
      ['POST', '/agents/audio/batch-transcribe'],
    ]) {
      expect((await s.api(m, p)).status, `${m} ${p}`).toBe(401);
    }
  });
});

describe('reference audio with a transcription engine', () => {
  let s: TestServer;
  let token: string;
  const calls: Array<{ path: string; mimeType: string; fileName: string }> = [];
  let gate: Promise<void> = Promise.resolve();
  let failNext = false;

  beforeAll(async () => {
    s = await startTestServer(
      {},
      {
        providers: providersWith({
          async transcribe(file) {
            calls.push(file);
            await gate;
            if (failNext) {
              failNext = false;
              throw new Error('engine exploded');
            }
            const head = await readFile(file.path);
            return `  heard ${sniffAudio(head)?.ext} ${calls.length}  `;
          },
        }),
      },
    );
    ({ token } = await s.register());
  });
  afterAll(() => s.close());

  it('transcribes on upload, hands the engine the stored file, and keeps the transcript', async () => {
    const agent = await createAgent(s, token);
    const r = await upload(s, token, agent.id, AUDIO_SAMPLES.m4a.bytes, '../evil name.m4a');
    expect(r.status).toBe(201);
    expect(r.body).toMatchObject({ transcript: `heard m4a ${calls.length}`, transcription_error: null });
    const call = calls.at(-1)!;
    expect(call.mimeType).toBe('audio/mp4');
    expect(call.fileName).toBe(fileOf(r.body.audio_url));
    expect(path.dirname(call.path)).toBe(path.join(s.server.ctx.config.mediaDir, 'audio'));
    expect((await s.api('GET', `/agents/${agent.id}/audio`, { token })).body[0].transcript).toBe(r.body.transcript);
  });

  it('skips transcription when auto_transcribe is false and still stores a failed one', async () => {
    const agent = await createAgent(s, token);
    const n = calls.length;
    const off = await upload(s, token, agent.id, AUDIO_SAMPLES.wav.bytes, 'a.wav', {
      name: 'quiet',
      auto_transcribe: 'false',
    });
    expect(off.body).toMatchObject({ transcript: null, transcription_error: null });
    expect(calls.length).toBe(n);
    failNext = true;
    const failed = await upload(s, token, agent.id, AUDIO_SAMPLES.wav.bytes, 'b.wav');
    expect(failed).toMatchObject({ status: 201, body: { transcript: null, transcription_error: 'engine exploded' } });
    expect((await s.api('GET', `/agents/${agent.id}/audio`, { token })).body).toHaveLength(2);
  });

  it('transcribes one item on request', async () => {
    const agent = await createAgent(s, token);
    const item = (await upload(s, token, agent.id, BARE_MP3, 'x', { name: 'n', auto_transcribe: 'false' })).body;
    const r = await s.api('POST', '/agents/audio/transcribe', { token, body: { audio_id: item.id } });
    expect(transcribeResponse.parse(r.body)).toMatchObject({ success: true, transcript: `heard mp3 ${calls.length}` });
    failNext = true;
    const bad = await s.api('POST', '/agents/audio/transcribe', { token, body: { audio_id: item.id } });
    expect(bad.body).toMatchObject({ success: false, message: 'engine exploded' });
  });

  it('answers the batch count at once and transcribes in the background', async () => {
    const agent = await createAgent(s, token);
    for (const n of ['a', 'b', 'c'])
      await upload(s, token, agent.id, AUDIO_SAMPLES.ogg.bytes, 'x.ogg', { name: n, auto_transcribe: 'false' });
    await upload(s, token, agent.id, AUDIO_SAMPLES.ogg.bytes, 'x.ogg', { name: 'done' }); // transcribed already

    let open!: () => void;
    gate = new Promise<void>((r) => (open = r));
    const r = await s.api('POST', '/agents/audio/batch-transcribe', {
      token,
      body: { agent_id: agent.id, force_retranscribe: false },
    });
    expect(r.status).toBe(200);
    expect(batchTranscribeResponse.parse(r.body)).toMatchObject({ count: 3, message: AUDIO_MESSAGES.batchStarted(3) });
    // Answered while the engine is still held: nothing is transcribed yet.
    const pending = (await s.api('GET', `/agents/${agent.id}/audio`, { token })).body;
    expect(pending.filter((a: { transcript: string | null }) => a.transcript === null)).toHaveLength(3);
    open();

    const deadline = Date.now() + 5000;
    let list = pending;
    while (list.some((a: { transcript: string | null }) => a.transcript === null) && Date.now() < deadline) {
      await new Promise((res) => setTimeout(res, 50));
      list = (await s.api('GET', `/agents/${agent.id}/audio`, { token })).body;
    }
    expect(list.every((a: { transcript: string | null }) => a.transcript?.startsWith('heard ogg'))).toBe(true);

    const none = await s.api('POST', '/agents/audio/batch-transcribe', { token, body: { agent_id: agent.id } });
    expect(none.body).toMatchObject({ count: 0, message: AUDIO_MESSAGES.nothingToTranscribe });
    const forced = await s.api('POST', '/agents/audio/batch-transcribe', {
      token,
      body: { agent_id: agent.id, force_retranscribe: true },
    });
    expect(forced.body.count).toBe(4);
    expect((await s.api('POST', '/agents/audio/batch-transcribe', { token, body: { agent_id: 'nope' } })).status).toBe(
      404,
    );
    expect((await s.api('POST', '/agents/audio/batch-transcribe', { token, body: {} })).status).toBe(422);
  });
});

describe('sniffAudio', () => {
  it('names each accepted kind and nothing else', () => {
    for (const [ext, sample] of Object.entries(AUDIO_SAMPLES))
      expect(sniffAudio(sample.bytes)).toEqual({ ext, mime: sample.mime });
    expect(sniffAudio(BARE_MP3)?.ext).toBe('mp3');
    for (const bad of [
      ELF,
      MZ,
      Buffer.alloc(0),
      Buffer.from('RIFF....AVI LIST'),
      Buffer.from([0xff, 0xf1, 0x50, 0x80]) /* ADTS AAC */,
      Buffer.from('%PDF-1.7'),
    ]) {
      expect(sniffAudio(bad)).toBeNull();
    }
  });
});

describe('background transcription and shutdown', () => {
  it('does not hold the server open when the engine never answers', async () => {
    let aborted = 0;
    const s = await startTestServer(
      {},
      {
        providers: providersWith({
          transcribe: (_f, signal) => new Promise<string>(() => signal?.addEventListener('abort', () => aborted++)),
        }),
      },
    );
    const { token } = await s.register();
    const agent = await createAgent(s, token);
    await upload(s, token, agent.id, AUDIO_SAMPLES.wav.bytes, 'a.wav', { name: 'n', auto_transcribe: 'false' });
    expect(
      (await s.api('POST', '/agents/audio/batch-transcribe', { token, body: { agent_id: agent.id } })).body.count,
    ).toBe(1);
    const started = Date.now();
    await s.close();
    expect(aborted).toBe(1); // the engine was told to stop
    expect(Date.now() - started).toBeLessThan(5000);
  });
});
