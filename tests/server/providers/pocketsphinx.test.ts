import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEspeakProvider, findEspeak } from '../../../server/providers/speech/espeak';
import { createPocketsphinxProvider, findPocketsphinx } from '../../../server/providers/transcription/pocketsphinx';
import { startTestServer, type TestServer } from '../harness';
import { AUDIO_SAMPLES, createAgent, upload } from '../audioFixtures';

// Built-in transcription: espeak-ng speaks a sentence, pocketsphinx hears it back. pocketsphinx's US English
// model copes badly with espeak's robotic default voice; its Klatt voice comes back far better, and even so
// "most words", not all, is the bar.

const sphinx = findPocketsphinx();
const espeak = findEspeak();
const why = !sphinx
  ? 'pocketsphinx_continuous with ffmpeg or sox is not installed'
  : !espeak
    ? 'espeak-ng is not installed'
    : '';
const SENTENCE = 'the weather is nice today and the city council should vote on the plan';

/** Share of the sentence's words found in the transcript. */
const recall = (heard: string) => {
  const got = new Set(heard.toLowerCase().split(/\W+/));
  const words = SENTENCE.split(' ');
  return words.filter((w) => got.has(w)).length / words.length;
};

describe.skipIf(!!why)(`pocketsphinx transcription${why ? ` (skipped: ${why})` : ''}`, () => {
  let dir: string;
  let wav: Buffer;
  beforeAll(async () => {
    dir = mkdtempSync(path.join(tmpdir(), 'agora-sphinx-test-'));
    wav = (await createEspeakProvider({ executable: espeak!, voice: 'en-us+klatt4' }).synthesize({ text: SENTENCE }))
      .audio;
    writeFileSync(path.join(dir, 'spoken.wav'), wav);
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('hears most words of a sentence espeak-ng spoke', async () => {
    const p = createPocketsphinxProvider(sphinx!);
    expect(p.available()).toBe(true);
    expect((await p.probe()).status).toBe('ok');
    const text = await p.transcribe({
      path: path.join(dir, 'spoken.wav'),
      mimeType: 'audio/wav',
      fileName: 'spoken.wav',
    });
    expect(recall(text), `heard: "${text}"`).toBeGreaterThanOrEqual(0.6);
  }, 60_000);

  it('says clearly what it cannot read, and stops when asked', async () => {
    const p = createPocketsphinxProvider(sphinx!);
    writeFileSync(path.join(dir, 'broken.wav'), Buffer.from('RIFF....WAVEnot really'));
    await expect(
      p.transcribe({ path: path.join(dir, 'broken.wav'), mimeType: 'audio/wav', fileName: 'broken.wav' }),
    ).rejects.toThrow(/could not read the audio/);
    if (sphinx!.converter.kind === 'sox') {
      writeFileSync(path.join(dir, 'rec.webm'), AUDIO_SAMPLES.webm.bytes);
      await expect(
        p.transcribe({ path: path.join(dir, 'rec.webm'), mimeType: 'audio/webm', fileName: 'rec.webm' }),
      ).rejects.toThrow(/only through ffmpeg, which is not installed/);
    }
    const ac = new AbortController();
    const pending = p.transcribe(
      { path: path.join(dir, 'spoken.wav'), mimeType: 'audio/wav', fileName: 'spoken.wav' },
      ac.signal,
    );
    ac.abort();
    await expect(pending).rejects.toMatchObject({ name: 'AbortError' });
  });

  describe('through the server', () => {
    let s: TestServer;
    let token: string;
    beforeAll(async () => {
      s = await startTestServer({ transcribeBaseUrl: undefined });
      ({ token } = await s.register());
    });
    afterAll(() => s.close());

    it('transcribes an upload (single) and an agent’s whole set (batch)', async () => {
      expect(s.server.ctx.providers.transcription.id).toBe('pocketsphinx');
      const agent = await createAgent(s, token);
      const first = await upload(s, token, agent.id, wav, 'voice.wav', { name: 'Voice', auto_transcribe: 'true' });
      expect(first.status).toBe(201);
      expect(recall(first.body.transcript ?? ''), JSON.stringify(first.body)).toBeGreaterThanOrEqual(0.6);

      const second = await upload(s, token, agent.id, wav, 'again.wav', { name: 'Again', auto_transcribe: 'false' });
      const batch = await s.api('POST', '/agents/audio/batch-transcribe', { token, body: { agent_id: agent.id } });
      expect(batch).toMatchObject({ status: 200, body: { count: 1 } });
      await (s.server.ctx as unknown as { transcriptions?: { idle(): Promise<void> } }).transcriptions?.idle();
      let transcript = '';
      for (let i = 0; i < 100 && !transcript; i++) {
        const items = (await s.api('GET', `/agents/${agent.id}/audio`, { token })).body as Array<{
          id: string;
          transcript: string | null;
        }>;
        transcript = items.find((x) => x.id === second.body.id)?.transcript ?? '';
        if (!transcript) await new Promise((r) => setTimeout(r, 100));
      }
      expect(recall(transcript), transcript).toBeGreaterThanOrEqual(0.6);
    }, 90_000);
  });
});
