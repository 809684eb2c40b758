import { mkdtemp, mkdir, readdir, rm, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { pruneTtsClips } from '../../../server/providers/speech/retention';

describe('speech clip retention', () => {
  let media: string;
  beforeEach(async () => {
    media = await mkdtemp(path.join(tmpdir(), 'agora-tts-'));
  });
  afterEach(() => rm(media, { recursive: true, force: true }));

  it('removes only old clips that this server made', async () => {
    const dir = path.join(media, 'tts');
    await mkdir(dir);
    const old = `${'a'.repeat(32)}.wav`;
    const fresh = `${'b'.repeat(32)}.wav`;
    for (const name of [old, fresh, 'notes.txt', 'custom-voice.wav']) await writeFile(path.join(dir, name), 'x');
    const tenDaysAgo = (Date.now() - 10 * 86_400_000) / 1000;
    for (const name of [old, 'notes.txt', 'custom-voice.wav'])
      await utimes(path.join(dir, name), tenDaysAgo, tenDaysAgo);

    expect(await pruneTtsClips(media, 7 * 86_400_000)).toBe(1);
    expect((await readdir(dir)).sort()).toEqual(['custom-voice.wav', fresh, 'notes.txt'].sort());
  });

  it('does nothing when no clip was ever written', async () => {
    expect(await pruneTtsClips(media, 1000)).toBe(0);
  });
});
