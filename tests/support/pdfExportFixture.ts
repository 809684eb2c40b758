import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll } from 'vitest';
import { buildExport } from '../../src/model/exportJson';
import { applyFrames, emptyFeed, type FeedInput } from '../../src/model/feed';
import { communicationConfig, reasoningConfig, researchConfig } from '../../src/schemas/settings';

// What the export tests share: a discussion export built from frames with the default settings at a fixed time, a
// PDF read back as text (pdftotext when installed, else the PDF's own text operators), and a font loader that must
// not be needed (the tests' text is Latin-1, so the PDF keeps Helvetica).

export const exportOf = (frames: readonly FeedInput[], o: { sessionId: string; endpoint: string; context: string }) =>
  buildExport(applyFrames(emptyFeed, frames as FeedInput[]), {
    ...o,
    configuration: {
      communication: communicationConfig.parse({}),
      reasoning: reasoningConfig.parse({}),
      research: researchConfig.parse({}),
    },
    now: new Date('2026-11-28T10:00:00.000Z'),
  });

export const noFontNeeded = async (): Promise<Uint8Array> => {
  throw new Error('no font should be needed');
};

/** A reader of PDFs as text, writing them into a folder removed after the file's tests. */
export function pdfReader(prefix: string) {
  const dir = mkdtempSync(path.join(tmpdir(), prefix));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  return async (pdf: Blob | Uint8Array, name: string): Promise<string> => {
    const bytes = pdf instanceof Uint8Array ? pdf : new Uint8Array(await pdf.arrayBuffer());
    try {
      const file = path.join(dir, name);
      writeFileSync(file, bytes);
      return execFileSync('pdftotext', [file, '-'], { encoding: 'utf8' }).replace(/\s+/g, ' ');
    } catch {
      const raw = Buffer.from(bytes).toString('latin1');
      return [...raw.matchAll(/\(((?:\\.|[^\\)])*)\)\s*Tj/g)].map((m) => m[1].replace(/\\(.)/g, '$1')).join(' ');
    }
  };
}
