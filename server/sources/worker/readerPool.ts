import { availableParallelism } from 'node:os';
import type { Piscina } from 'piscina';
import { UnreadableSource } from '../read/types';
import type { ReadOutcome, ReadTask } from './readTask';

// The reader threads (piscina): a document is parsed in one of them, so a 300-page PDF never holds the event loop
// that answers /health and streams a discussion's deltas. Bounded three ways: SOURCE_READ_THREADS threads, each
// with SOURCE_READ_MEMORY_MB of heap (resourceLimits: past it the thread dies, not the server), and
// SOURCE_READ_TIMEOUT_MS per file (past it the thread running the file is terminated, so a file that loops
// pdf.js forever costs one thread's restart). A thread idle for a minute ends; the first read starts one.

/** The server bundle (scripts/lib/serverBundle.mjs) defines this as its own copy of readerWorker.ts. */
declare const AGORA_SOURCE_READER_URL: string | undefined;

export interface ReaderPoolOptions {
  threads: number;
  memoryMb: number;
  /** The thread's entry; by default readerWorker.ts (tests give a stand-in). */
  filename?: string;
}

export const defaultReadThreads = () => Math.min(2, Math.max(1, availableParallelism() - 1));

function readerEntry(): { filename: string; execArgv: string[] } {
  if (typeof AGORA_SOURCE_READER_URL === 'string') return { filename: AGORA_SOURCE_READER_URL, execArgv: [] };
  // From the sources (tests, `npm run server`, the bench): the thread loads TypeScript through tsx, as the server.
  return { filename: new URL('./readerWorker.ts', import.meta.url).href, execArgv: ['--import', 'tsx'] };
}

export class ReaderPool {
  private pool: Piscina | null = null;
  private starting: Promise<Piscina> | null = null;
  /** Files read to the end in a thread (tests and /health read it). */
  completed = 0;

  constructor(private readonly opts: ReaderPoolOptions) {}

  private start(): Promise<Piscina> {
    this.starting ??= import('piscina').then(({ Piscina }) => {
      const entry = readerEntry();
      this.pool = new Piscina({
        filename: this.opts.filename ?? entry.filename,
        execArgv: this.opts.filename ? [] : entry.execArgv,
        minThreads: 0,
        maxThreads: this.opts.threads,
        idleTimeout: 60_000,
        // Files waiting for a thread: a few per thread; more is refused (503) rather than queued without end.
        maxQueue: this.opts.threads * 8,
        resourceLimits: { maxOldGenerationSizeMb: this.opts.memoryMb, maxYoungGenerationSizeMb: 32 },
      });
      return this.pool;
    });
    return this.starting;
  }

  /** Reads one file in a thread within `timeoutMs` (waiting for a thread counts); a refusal is an UnreadableSource. */
  async read(task: ReadTask, timeoutMs: number): Promise<Extract<ReadOutcome, { ok: true }>> {
    const pool = await this.start();
    // The thread gets its own copy of the bytes, moved rather than cloned: the caller's stay intact.
    const bytes = new Uint8Array(task.bytes);
    let outcome: ReadOutcome;
    try {
      outcome = await pool.run(
        { ...task, bytes },
        { signal: AbortSignal.timeout(timeoutMs), transferList: [bytes.buffer as ArrayBuffer] },
      );
    } catch (e) {
      throw refusalOf(e, timeoutMs, this.opts.memoryMb);
    }
    this.completed++;
    if (!outcome.ok) throw new UnreadableSource(outcome.message, outcome.status);
    return outcome;
  }

  async close(): Promise<void> {
    const pool = this.pool;
    this.pool = null;
    this.starting = null;
    await pool?.destroy();
  }
}

/** What a thread's end means to the person who added the file. */
function refusalOf(e: unknown, timeoutMs: number, memoryMb: number): Error {
  const err = e as { name?: string; code?: string; message?: string };
  if (err?.name === 'AbortError' || err?.name === 'TimeoutError')
    return new UnreadableSource(
      `Reading took longer than ${Math.round(timeoutMs / 1000)} s (SOURCE_READ_TIMEOUT_MS); nothing was added.`,
    );
  if (err?.code === 'ERR_WORKER_OUT_OF_MEMORY')
    return new UnreadableSource(
      `Reading this document needed more than ${memoryMb} MB (SOURCE_READ_MEMORY_MB); split it into smaller files.`,
      413,
    );
  if (/queue is at limit/i.test(err?.message ?? ''))
    return new UnreadableSource('The server is reading many sources right now; add this one again in a minute.', 503);
  return e instanceof Error ? e : new Error(String(e));
}
