// Server frames of the recorded transcripts (tests/transcripts/*.jsonl), through the production parse path.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { parseFrame } from '../../src/schemas/frames';
import { hybridServerFrame } from '../../src/schemas/hybridSocket';
import { standardServerFrame } from '../../src/schemas/standardSocket';
import type { FeedInput } from '../../src/model/feed';

export const TRANSCRIPTS = path.resolve(__dirname, '../transcripts');

/** The raw `data` of every server line (objects only), in order. */
export function serverData(name: string): unknown[] {
  const lines = readFileSync(path.join(TRANSCRIPTS, name.endsWith('.jsonl') ? name : `${name}.jsonl`), 'utf8')
    .split('\n')
    .filter(Boolean);
  return lines
    .slice(1)
    .map((l) => JSON.parse(l) as { dir?: string; data?: unknown })
    .filter((r) => r.dir === 'server' && typeof r.data === 'object' && r.data !== null)
    .map((r) => r.data);
}

/** Parses one frame with the standard union, else the hybrid one; null when neither accepts it. */
export function parseFeedFrame(data: unknown): FeedInput | null {
  const s = parseFrame(standardServerFrame, data);
  if (s.kind === 'frame') return s.frame;
  const h = parseFrame(hybridServerFrame, data);
  return h.kind === 'frame' ? h.frame : null;
}

/** Every server frame of a transcript that parses, in order. */
export function transcriptFrames(name: string): FeedInput[] {
  return serverData(name)
    .map(parseFeedFrame)
    .filter((f): f is FeedInput => f !== null);
}
