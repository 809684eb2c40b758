import { AUDIO_MESSAGES } from '../../src/schemas/messages';
import type { AppContext } from '../context';
import { storedPath } from './audioFiles';
import type { AudioRow } from './audioStore';
import { subsystemPlugin } from '../http/subsystem';
import { TranscriptionSlots } from './transcriptionSlots';

/** A transcription that could not run or failed; the message is what the client shows. */
export class TranscriptionFailure extends Error {}

/** Per-request cap; the provider may have its own, shorter one. */
const TRANSCRIBE_TIMEOUT_MS = 120_000;

export const transcriptionAvailable = (ctx: AppContext) => ctx.providers.transcription.available();

declare module '../context' {
  interface AppContext {
    /** TRANSCRIBE_JOBS_PER_USER and TRANSCRIBE_JOBS: the transcriptions running now. */
    transcriptionSlots: TranscriptionSlots;
  }
}

export const transcriptionPlugin = subsystemPlugin('transcription', 'transcriptionSlots', {
  create: ({ ctx: { config } }) => new TranscriptionSlots(config.transcribeJobsPerUser, config.transcribeJobs),
});

/**
 * Transcribes one stored item and saves the transcript on its row. At most TRANSCRIBE_JOBS_PER_USER run for a user
 * and TRANSCRIBE_JOBS on the server: `wait` (a background batch) waits its turn, otherwise a user who already has
 * one running is told so.
 */
export async function transcribeAndStore(
  ctx: AppContext,
  row: AudioRow,
  signal?: AbortSignal,
  opts: { wait?: boolean } = {},
): Promise<string> {
  if (!transcriptionAvailable(ctx)) throw new TranscriptionFailure(AUDIO_MESSAGES.noTranscriptionEngine);
  const file = storedPath(ctx.config.mediaDir, row.file_name);
  const slots = ctx.transcriptionSlots;
  if (!opts.wait && slots.userFull(row.user_id)) {
    throw new TranscriptionFailure(
      'You already have a transcription running; try again when it has finished (TRANSCRIBE_JOBS_PER_USER)',
    );
  }
  let text: string;
  const timeout = AbortSignal.timeout(TRANSCRIBE_TIMEOUT_MS);
  const callSignal = signal ? AbortSignal.any([signal, timeout]) : timeout;
  let release: (() => void) | undefined;
  try {
    release = await slots.acquire(row.user_id, callSignal);
    text = await ctx.providers.transcription.transcribe(
      // The engine sees the server-made name: its extension is the sniffed type, the client's name is irrelevant.
      { path: file, mimeType: row.mime_type, fileName: row.file_name },
      callSignal,
    );
  } catch (e) {
    throw new TranscriptionFailure((e as Error).message || 'Transcription failed');
  } finally {
    release?.();
  }
  const transcript = text.trim();
  await ctx.db.query('UPDATE audio_items SET transcript = $1 WHERE id = $2 AND user_id = $3', [
    transcript,
    row.id,
    row.user_id,
  ]);
  return transcript;
}

/**
 * Background batches. Items run one after another (transcription engines are heavy); an item already being
 * transcribed is not queued twice; everything stops when the server closes.
 */
export class TranscriptionQueue {
  private inFlight = new Set<string>();
  private stop = new AbortController();
  private running = new Set<Promise<void>>();

  constructor(
    private ctx: AppContext,
    private log: (msg: string) => void,
  ) {}

  /** Starts transcribing `rows` without waiting; answers how many were queued. */
  enqueue(rows: AudioRow[]): number {
    const todo = rows.filter((r) => !this.inFlight.has(r.id));
    todo.forEach((r) => this.inFlight.add(r.id));
    if (!todo.length) return 0;
    const job = this.run(todo).finally(() => this.running.delete(job));
    this.running.add(job);
    return todo.length;
  }

  private async run(rows: AudioRow[]) {
    for (const row of rows) {
      try {
        if (!this.stop.signal.aborted) await transcribeAndStore(this.ctx, row, this.stop.signal, { wait: true });
      } catch (e) {
        if (!this.stop.signal.aborted)
          this.log(`background transcription of ${row.id} failed: ${(e as Error).message}`);
      } finally {
        this.inFlight.delete(row.id);
      }
    }
  }

  /** Resolves when every batch has finished (tests; shutdown). */
  async idle() {
    while (this.running.size) await Promise.all(this.running);
  }

  /** Aborts the batches and waits briefly for them; an engine that ignores the abort cannot hold shutdown up. */
  async close(graceMs = 2000) {
    this.stop.abort();
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([this.idle(), new Promise<void>((r) => (timer = setTimeout(r, graceMs)))]);
    clearTimeout(timer);
  }
}
