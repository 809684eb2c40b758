import type { SourceKind } from '../../../src/schemas/sources';
import { type PassageDraft, passagesOf } from '../passages';
import { readSourceFile } from '../read';
import { UnreadableSource } from '../read/types';

// The CPU part of adding a source — the document's text (pdf.js, mammoth, Readability) and its passages — as one
// function of plain data, so it runs in a reader thread (readerWorker.ts) and nothing of it on the event loop.

export interface ReadTask {
  fileName: string;
  bytes: Uint8Array;
  maxPages: number;
  unzippedMaxBytes: number;
  maxPassages: number;
}

/** What a thread hands back: a refusal is data (an Error's class does not survive the trip between threads). */
export type ReadOutcome =
  | { ok: true; kind: SourceKind; title: string | null; pages: number; passages: PassageDraft[] }
  | { ok: false; status: number; message: string };

export async function readTask(task: ReadTask): Promise<ReadOutcome> {
  try {
    const doc = await readSourceFile(task.fileName, task.bytes, {
      maxPages: task.maxPages,
      unzippedMaxBytes: task.unzippedMaxBytes,
    });
    const passages = passagesOf(doc.sections, task.maxPassages);
    return { ok: true, kind: doc.kind, title: doc.title, pages: doc.pages, passages };
  } catch (e) {
    if (e instanceof UnreadableSource) return { ok: false, status: e.status, message: e.message };
    throw e;
  }
}
