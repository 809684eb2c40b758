import { describe, expect, it } from 'vitest';
import { createEspeakProvider, findEspeak } from '../../../server/providers/speech/espeak';

// Runs the real espeak-ng when it is installed; otherwise there is nothing local to test against.
const espeak = findEspeak();

describe.skipIf(!espeak)(
  `espeak-ng speech${espeak ? '' : ' (skipped: espeak-ng is not installed on this machine)'}`,
  () => {
    const p = createEspeakProvider({ executable: espeak! });

    it('synthesizes a WAV with true RIFF sizes', async () => {
      const out = await p.synthesize({ text: 'Hello from the vineyard.' });
      expect(out).toMatchObject({ mimeType: 'audio/wav', extension: 'wav' });
      expect(out.audio.toString('ascii', 0, 4)).toBe('RIFF');
      expect(out.audio.readUInt32LE(4)).toBe(out.audio.length - 8);
      expect(out.audio.length).toBeGreaterThan(10_000);
      expect(await p.probe()).toMatchObject({ status: 'ok', provider: 'espeak' });
    });

    it('never lets text act as options or shell: dashes, quotes and semicolons are just words', async () => {
      const out = await p.synthesize({ text: '--help "; rm -rf / # $(whoami) `id`' });
      expect(out.audio.toString('ascii', 0, 4)).toBe('RIFF');
    });

    it('speaks faster at a higher speed', async () => {
      const text = 'A sentence long enough that the speaking rate makes a clear difference in length.';
      const slow = await p.synthesize({ text, speed: 0.5 });
      const fast = await p.synthesize({ text, speed: 2 });
      expect(fast.audio.length).toBeLessThan(slow.audio.length * 0.7);
    });

    it('stops on abort', async () => {
      const ac = new AbortController();
      ac.abort();
      await expect(p.synthesize({ text: 'x', signal: ac.signal })).rejects.toMatchObject({ name: 'AbortError' });
    });
  },
);

describe('finding espeak-ng', () => {
  it('honours an explicit path only when it is executable, and searches PATH otherwise', () => {
    expect(findEspeak('/definitely/not/espeak-ng')).toBeNull();
    expect(findEspeak(undefined, '/definitely/not')).toBeNull();
  });
});
