import { closeSync, mkdirSync, openSync, readdirSync, readFileSync, rmSync, writeSync } from 'node:fs';
import path from 'node:path';
import type { Db } from '../db/db';
import { discussionExists, insertMissingFrames } from './store';

// Sent means stored, without making every frame wait for the database. In the single-process default a frame is
// written to this discussion's journal file (one write() in the same tick, before the socket send) and then to the
// database in the background batch, as before. A write() is in the kernel's page cache once it returns, so a killed
// process (SIGKILL, a crash) loses nothing a client was sent: the next start copies what the journal holds and the
// database does not into discussion_frames, then the discussion is marked abandoned as usual. The file is removed
// once the discussion has ended and everything is stored. (A power cut can still lose the last page-cache
// writes; DISCUSSIONS_SURVIVE_RESTART waits for the database instead, at a cost the discussions bench shows.)
// Line format: `<seq> <frame JSON>\n`; JSON.stringify never writes a raw newline, so a line is one frame.

export const journalDir = (dataDir: string) => path.join(dataDir, 'journal');

export interface JournalLog {
  warn(obj: object, msg: string): void;
}

export class FrameJournal {
  private constructor(
    private fd: number | null,
    private readonly file: string,
  ) {}

  /** The journal of one discussion; null (and a warning) when the directory cannot be written. */
  static open(dir: string, discussionId: string, log: JournalLog): FrameJournal | null {
    const file = path.join(dir, `${discussionId}.jsonl`);
    try {
      mkdirSync(dir, { recursive: true });
      return new FrameJournal(openSync(file, 'a'), file);
    } catch (err) {
      log.warn(
        { err, discussion: discussionId },
        'could not open the frame journal; frames are stored in the background only',
      );
      return null;
    }
  }

  append(seq: number, data: string) {
    if (this.fd === null) return;
    writeSync(this.fd, `${seq} ${data}\n`);
  }

  /** Everything is in the database: the journal is no longer needed. */
  discard() {
    if (this.fd !== null) closeSync(this.fd);
    this.fd = null;
    rmSync(this.file, { force: true });
  }
}

/**
 * At start, before leftovers are marked abandoned: copies every journaled frame the database lacks into
 * discussion_frames and removes the journals. A journal of a discussion that no longer exists (deleted) is dropped.
 * Resolves with the number of frames recovered.
 */
export async function recoverJournals(db: Db, dir: string, log: JournalLog): Promise<number> {
  let names: string[];
  try {
    names = readdirSync(dir).filter((n) => n.endsWith('.jsonl'));
  } catch {
    return 0;
  }
  let recovered = 0;
  for (const name of names) {
    const file = path.join(dir, name);
    const discussionId = name.slice(0, -'.jsonl'.length);
    const frames: Array<[number, string]> = [];
    for (const line of readFileSync(file, 'utf8').split('\n')) {
      const m = /^(\d+) (.+)$/.exec(line);
      if (!m) continue;
      try {
        JSON.parse(m[2]);
        frames.push([Number(m[1]), m[2]]);
      } catch {
        /* a line cut short by the kill: it was never sent either */
      }
    }
    try {
      const exists = await discussionExists(db, discussionId);
      for (let i = 0; exists && i < frames.length; i += 200)
        recovered += await insertMissingFrames(db, discussionId, frames.slice(i, i + 200));
      rmSync(file, { force: true });
    } catch (err) {
      log.warn({ err, discussion: discussionId }, 'could not recover a frame journal; it is kept for the next start');
    }
  }
  return recovered;
}
