// Synthetic discussions for the benches, built from the recorded transcripts (tests/transcripts/*.jsonl): their
// server frames, cycled until there are `count`, each copy with fresh ids (message, argument and parent ids get a
// cycle suffix; every frame gets a `seq`, so content-keyed frames are new too). The end and error frames are left
// out, so the whole stream belongs to one live discussion. Returned as raw text, the way a socket delivers it.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const TRANSCRIPTS = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..', 'tests', 'transcripts');
const SKIP = new Set(['discussion_ended', 'error', 'discussion_started', 'discussion_initialized']);

export function transcriptServerFrames(name: string): Record<string, unknown>[] {
  return readFileSync(path.join(TRANSCRIPTS, name), 'utf8')
    .split('\n')
    .filter((l) => l.trim())
    .slice(1)
    .map((l) => JSON.parse(l) as { dir?: string; data?: unknown })
    .flatMap((l) =>
      l.dir === 'server' && l.data && typeof l.data === 'object' ? [l.data as Record<string, unknown>] : [],
    );
}

function fresh(frame: Record<string, unknown>, cycle: number, seq: number): Record<string, unknown> {
  const out: Record<string, unknown> = { ...frame, seq };
  const tag = (id: unknown) => (typeof id === 'string' ? `${id}~${cycle}` : id);
  if ('id' in out) out.id = tag(out.id);
  if ('message_id' in out) out.message_id = tag(out.message_id);
  if (out.argument && typeof out.argument === 'object') {
    const a = out.argument as Record<string, unknown>;
    out.argument = { ...a, id: tag(a.id), ...(a.parent_id ? { parent_id: tag(a.parent_id) } : {}) };
  }
  return out;
}

/** `count` raw frames cycled from the named transcripts, with fresh ids. */
export function syntheticFrames(names: string[], count: number): string[] {
  const base = names.flatMap(transcriptServerFrames).filter((f) => !SKIP.has(String(f.type)));
  if (base.length === 0) throw new Error(`no server frames in ${names.join(', ')}`);
  const out: string[] = [];
  for (let i = 0; out.length < count; i++)
    out.push(JSON.stringify(fresh(base[i % base.length], Math.floor(i / base.length), i)));
  return out;
}

export const STANDARD_TRANSCRIPTS = [
  'enhanced-default.jsonl',
  'multi_round_reasoning-default.jsonl',
  'multi_round_reasoning-research.jsonl',
  'basic-sequential.jsonl',
];
export const HYBRID_TRANSCRIPTS = [
  'hybrid-hybrid.jsonl',
  'hybrid-adaptive.jsonl',
  'hybrid-structured.jsonl',
  'hybrid-research.jsonl',
];
