import { threadId } from 'node:worker_threads';
import { afterAll, describe, expect, it } from 'vitest';
import { UnreadableSource } from '../../../server/sources/read/types';
import { ReaderPool } from '../../../server/sources/worker/readerPool';
import { pdfOf } from '../../support/documents';

// The reader threads (server/sources/worker/readerPool.ts): a document is parsed off the event loop; the read
// cap terminates a thread that never ends, the memory cap one that takes too much, and the pool reads on after
// either.
const task = (fileName: string, bytes: Uint8Array = new TextEncoder().encode('Hello.')) => ({
  fileName,
  bytes,
  maxPages: 10,
  unzippedMaxBytes: 10 * 1024 * 1024,
  maxPassages: 100,
});

describe('the reader threads', () => {
  const standIn = new ReaderPool({
    threads: 1,
    memoryMb: 64,
    filename: new URL('./fixtures/standInReader.mjs', import.meta.url).href,
  });
  const real = new ReaderPool({ threads: 1, memoryMb: 256 });
  afterAll(async () => {
    await standIn.close();
    await real.close();
  });

  it('reads a PDF into passages in a thread of its own, leaving the caller its bytes', async () => {
    const bytes = pdfOf(['The ferry carries 4,000 riders a day.', 'Page two says the bridge is closed.']);
    const length = bytes.length;
    const read = await real.read(task('report.pdf', bytes), 60_000);
    expect(read).toMatchObject({ kind: 'pdf', pages: 2 });
    expect(read.passages.map((p) => p.page)).toEqual([1, 2]);
    expect(bytes.length).toBe(length);
    expect(real.completed).toBe(1);
    await expect(real.read(task('notes.pdf', new TextEncoder().encode('not a pdf')), 60_000)).rejects.toMatchObject({
      status: 415,
    });
  }, 90_000);

  it('runs the task off this thread', async () => {
    const read = await standIn.read(task('a.txt'), 30_000);
    expect(read.passages[0].text).toMatch(/^thread \d+, 6 bytes$/);
    expect(read.passages[0].text).not.toBe(`thread ${threadId}, 6 bytes`);
  }, 40_000);

  it('ends a read past its time cap by terminating its thread, and reads on', async () => {
    const started = Date.now();
    const refused = await standIn.read(task('spin.txt'), 1_500).catch((e) => e);
    expect(refused).toBeInstanceOf(UnreadableSource);
    expect(refused.message).toBe('Reading took longer than 2 s (SOURCE_READ_TIMEOUT_MS); nothing was added.');
    expect(Date.now() - started).toBeLessThan(20_000);
    expect((await standIn.read(task('b.txt'), 30_000)).passages).toHaveLength(1);
  }, 60_000);

  it('refuses a document that needs more memory than a thread may take, and reads on', async () => {
    const refused = await standIn.read(task('hog.txt'), 60_000).catch((e) => e);
    expect(refused).toBeInstanceOf(UnreadableSource);
    expect(refused).toMatchObject({ status: 413 });
    expect(refused.message).toContain('SOURCE_READ_MEMORY_MB');
    expect((await standIn.read(task('c.txt'), 30_000)).passages).toHaveLength(1);
  }, 90_000);
});
