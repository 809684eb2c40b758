import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseWavHeader, wavRefusal } from '../../../server/audio/wavHeader';
import { createPocketsphinxProvider, findPocketsphinx } from '../../../server/providers/transcription/pocketsphinx';
import { silentWav } from '../../support/wav';
import { createAgent, providersWith, upload } from '../audioFixtures';
import { startTestServer } from '../harness';

// A WAV is judged by its header before any converter reads it: a tiny file that declares 1 Hz is hours of audio
// once resampled. And one transcription runs per user at a time.

const sphinx = findPocketsphinx();

describe('a WAV header', () => {
  it('gives rate and duration; absurd rates and long recordings are refused with the reason', () => {
    const normal = silentWav(16_000);
    expect(parseWavHeader(normal, normal.length)).toMatchObject({ sampleRate: 16_000, channels: 1, seconds: 1 });
    expect(wavRefusal(parseWavHeader(normal, normal.length), 30)).toBeNull();
    const oneHz = silentWav(10_000, { rate: 1 });
    expect(wavRefusal(parseWavHeader(oneHz, oneHz.length), 30)).toMatch(/sample rate of 1 Hz/);
    const placeholder = silentWav(16_000 * 3, { placeholderSizes: true });
    expect(parseWavHeader(placeholder, placeholder.length)?.seconds).toBe(3);
    expect(wavRefusal(parseWavHeader(placeholder, placeholder.length), 0.02)).toMatch(
      /3 s long; this server transcribes up to 1.2 s \(TRANSCRIBE_MAX_MINUTES\)/,
    );
    expect(wavRefusal(parseWavHeader(Buffer.from('RIFF....WAVEjunk'), 16), 30)).toMatch(/could not read the audio/);
  });

  it.skipIf(!sphinx)('is refused by pocketsphinx before the converter runs when it declares 1 Hz', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'agora-caps-wav-'));
    try {
      const file = path.join(dir, 'one-hz.wav');
      // 20 KB declaring 1 Hz: 10,000 seconds of audio to a resampler.
      writeFileSync(file, silentWav(10_000, { rate: 1 }));
      const started = Date.now();
      await expect(
        createPocketsphinxProvider(sphinx!).transcribe({ path: file, mimeType: 'audio/wav', fileName: 'one-hz.wav' }),
      ).rejects.toThrow(/sample rate of 1 Hz/);
      expect(Date.now() - started).toBeLessThan(2_000);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('transcription jobs', () => {
  it('one per user at a time: a second Transcribe now is told so, another user is not held up', {
    timeout: 120_000,
  }, async () => {
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    let running = 0;
    const s = await startTestServer(
      { transcribeJobsPerUser: 1, transcribeJobs: 4 },
      {
        providers: providersWith({
          async transcribe() {
            running++;
            await gate;
            return 'heard';
          },
        }),
      },
    );
    try {
      const a = await s.register();
      const b = await s.register();
      const agentA = await createAgent(s, a.token);
      const agentB = await createAgent(s, b.token);
      const wav = silentWav(1_600);
      const itemsA = [
        (await upload(s, a.token, agentA.id, wav, 'a1.wav', { name: 'one', auto_transcribe: 'false' })).body,
        (await upload(s, a.token, agentA.id, wav, 'a2.wav', { name: 'two', auto_transcribe: 'false' })).body,
      ];
      const itemB = (await upload(s, b.token, agentB.id, wav, 'b.wav', { name: 'b', auto_transcribe: 'false' })).body;
      const first = s.api('POST', '/agents/audio/transcribe', { token: a.token, body: { audio_id: itemsA[0].id } });
      await expect.poll(() => running).toBe(1);
      const second = await s.api('POST', '/agents/audio/transcribe', {
        token: a.token,
        body: { audio_id: itemsA[1].id },
      });
      expect(second.body).toMatchObject({
        success: false,
        message: expect.stringContaining('TRANSCRIBE_JOBS_PER_USER'),
      });
      const other = s.api('POST', '/agents/audio/transcribe', { token: b.token, body: { audio_id: itemB.id } });
      await expect.poll(() => running).toBe(2);
      release();
      expect((await first).body).toMatchObject({ success: true, transcript: 'heard' });
      expect((await other).body).toMatchObject({ success: true });
    } finally {
      release();
      await s.close();
    }
  });
});
