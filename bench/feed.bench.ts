// Feed ingest budget: a synthetic 10,000-frame discussion, built from the recorded transcripts' server
// frames with fresh ids and timestamps (and each turn streamed as start + deltas + final, as the live server
// does), goes through the production path: JSON.parse → parseFrame (the panel's zod union) → applyFrame.
// Figures: frames per second of the whole path (target ≥ 20,000), of each stage alone, and the whole path's
// time as a multiple of bare JSON.parse of the same bytes, measured in the same run. Medians of several runs.
// Figures only; nothing is asserted.
//
//   npm run bench feed        (or npx tsx bench/feed.bench.ts)
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { applyFrame, emptyFeed, type Feed, type FeedInput } from '../src/model/feed';
import { selectCounts } from '../src/model/feedSelectors';
import { knownTypes, parseFrame } from '../src/schemas/frames';
import { hybridServerFrame } from '../src/schemas/hybridSocket';
import { standardServerFrame } from '../src/schemas/standardSocket';
import type { Figures } from './run';

const HERE = path.dirname(fileURLToPath(import.meta.url));
const TRANSCRIPTS = path.resolve(HERE, '../tests/transcripts');
const FRAMES = Number(process.env.FEED_BENCH_FRAMES ?? 10_000);
const TRIALS = Number(process.env.FEED_BENCH_TRIALS ?? 7);

const standardKnown = knownTypes(standardServerFrame);
const hybridKnown = knownTypes(hybridServerFrame);

type Raw = Record<string, unknown> & { type: string };

function recorded(): Raw[][] {
  return readdirSync(TRANSCRIPTS)
    .filter((f) => f.endsWith('.jsonl') && !f.startsWith('updates'))
    .sort()
    .map((f) =>
      readFileSync(path.join(TRANSCRIPTS, f), 'utf8')
        .split('\n')
        .filter(Boolean)
        .slice(1)
        .map((l) => JSON.parse(l) as { dir?: string; data?: unknown })
        .filter((r) => r.dir === 'server' && typeof r.data === 'object' && r.data !== null && parseOk(r.data))
        .map((r) => r.data as Raw),
    );
}

function parseOk(data: unknown): boolean {
  return (
    parseFrame(standardServerFrame, data, standardKnown).kind === 'frame' ||
    parseFrame(hybridServerFrame, data, hybridKnown).kind === 'frame'
  );
}

/** The wire bytes of a long discussion: recorded frames, copy after copy, with fresh ids and timestamps. */
function synthesise(n: number): { wire: string[]; hybrid: boolean[] } {
  const sessions = recorded();
  const wire: string[] = [];
  const hybrid: boolean[] = [];
  let clock = Date.parse('2026-11-22T02:00:00.000Z');
  let copy = 0;
  const push = (frame: Raw) => {
    wire.push(JSON.stringify(frame));
    hybrid.push(!standardKnown.has(frame.type));
  };
  while (wire.length < n) {
    copy++;
    for (const frames of sessions) {
      for (const original of frames) {
        if (wire.length >= n) break;
        const f = structuredClone(original) as Raw;
        const fresh = (id: unknown) => (typeof id === 'string' ? `${id}~${copy}` : id);
        if ('timestamp' in f) f.timestamp = new Date(clock++).toISOString();
        if ('id' in f) f.id = fresh(f.id);
        if ('message_id' in f) f.message_id = fresh(f.message_id);
        if ('audio_id' in f) f.audio_id = fresh(f.audio_id);
        if (f.type === 'argument') {
          const a = f.argument as Record<string, unknown>;
          a.id = fresh(a.id);
          a.parent_id = fresh(a.parent_id);
        }
        if ((f.type === 'agent_message' || f.type === 'text') && typeof f.id === 'string') {
          // streamed as the live server does: start, a few coalesced deltas, then the final frame
          const content = String(f.type === 'text' ? f.text : f.content);
          push({
            type: 'agent_message_start',
            id: f.id,
            agent_id: String(f.agent_id ?? f.from_id),
            agent_name: String(f.agent_name ?? f.from),
            timestamp: new Date(clock++).toISOString(),
          });
          const third = Math.ceil(content.length / 3);
          for (let i = 0; i < 3 && wire.length < n; i++)
            push({ type: 'agent_message_delta', id: f.id, delta: content.slice(i * third, (i + 1) * third) });
          if (wire.length >= n) break;
        }
        push(f);
      }
    }
  }
  return { wire, hybrid };
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const per = (frames: number, ms: number) => Math.round(frames / (ms / 1000));

export default async function run(): Promise<Figures> {
  const { wire, hybrid } = synthesise(FRAMES);
  const parse = (i: number, data: unknown): FeedInput | null => {
    const r = hybrid[i]
      ? parseFrame(hybridServerFrame, data, hybridKnown)
      : parseFrame(standardServerFrame, data, standardKnown);
    return r.kind === 'frame' ? r.frame : null;
  };

  const jsonMs: number[] = [];
  const fullMs: number[] = [];
  const schemaMs: number[] = [];
  const applyMs: number[] = [];
  let feed: Feed = emptyFeed;
  let sink = 0;
  for (let t = 0; t < TRIALS + 1; t++) {
    // bare JSON.parse of the same bytes
    let t0 = performance.now();
    const parsed: unknown[] = new Array(wire.length);
    for (let i = 0; i < wire.length; i++) parsed[i] = JSON.parse(wire[i]);
    const json = performance.now() - t0;

    // schemas alone (on already-parsed objects)
    t0 = performance.now();
    const typed: FeedInput[] = [];
    for (let i = 0; i < parsed.length; i++) {
      const f = parse(i, parsed[i]);
      if (f) typed.push(f);
    }
    const schema = performance.now() - t0;

    // applyFrame alone
    t0 = performance.now();
    let f: Feed = emptyFeed;
    for (const frame of typed) f = applyFrame(f, frame);
    const apply = performance.now() - t0;

    // the whole path, as the socket service and the machine run it
    t0 = performance.now();
    feed = emptyFeed;
    for (let i = 0; i < wire.length; i++) {
      const frame = parse(i, JSON.parse(wire[i]));
      if (frame) feed = applyFrame(feed, frame);
      else sink++;
    }
    const full = performance.now() - t0;

    if (t > 0) {
      jsonMs.push(json);
      schemaMs.push(schema);
      applyMs.push(apply);
      fullMs.push(full);
    }
  }
  const counts = selectCounts(feed);
  const full = median(fullMs);
  const json = median(jsonMs);
  return {
    frames: wire.length,
    bytes: wire.reduce((a, s) => a + s.length, 0),
    trials: TRIALS,
    full_path_frames_per_s: per(wire.length, full),
    full_path_ms: Math.round(full * 10) / 10,
    json_parse_frames_per_s: per(wire.length, json),
    full_path_to_json_parse_ratio: Math.round((full / json) * 10) / 10,
    schema_only_frames_per_s: per(wire.length, median(schemaMs)),
    apply_frame_only_frames_per_s: per(wire.length, median(applyMs)),
    target_frames_per_s: 20_000,
    feed_messages: counts.messages,
    feed_arguments: counts.arguments,
    feed_papers: counts.papers,
    rejected_frames: sink / (TRIALS + 1),
  };
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  run().then(
    (figures) => {
      for (const [k, v] of Object.entries(figures)) console.log(`${k.padEnd(32)} ${v}`);
      process.exit(0);
    },
    (e) => {
      console.error(e);
      process.exit(1);
    },
  );
}
