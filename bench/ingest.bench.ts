// Ingest budget (panels): a 10,000-frame discussion arriving as a burst (a resume's replay, a long catch-up)
// through the production path of the standard panel — JSON.parse → parseFrame (the server schema) → the socket's
// frame batch (services/frameBatch.ts: the frames that arrive together go on as one event, at most FRAME_BATCH_MAX)
// → the REAL standardDiscussion machine (actor.send of socketSession.frames, so applyFrame runs inside the machine's
// assign, with its guards and relays) — in frames per second (target ≥ 20,000), and as a multiple of bare
// JSON.parse of the same text. A live stream's frames come one at a time, one event each: that path is timed too and
// printed beside it (`machine_path_one_event_per_frame_ms`). The same stream
// is also timed through parseFrame alone and through parseFrame + applyFrame without the machine, so the cost of
// each layer shows. Frames are the recorded standard transcripts cycled with fresh ids (bench/lib/frames.ts).
// The hybrid panel's path is timed the same way in the same run (the recorded hybrid transcripts through the hybrid
// schema into the REAL hybridDiscussion machine), budgeted against its own floor, JSON.parse of the hybrid text
// (its frames are a third longer than the standard ones: more turns in full, ACL messages, metrics); its frames per
// second as a share of the standard path's is printed beside it (the median of each trial's own ratio, the two
// paths timed back to back, so a stretch in which this shared VM runs slow slows both sides alike; each goes first
// in every other trial, after a full collection), and its bytes per second as a share too.
// Medians of TRIALS runs, each on a fresh actor and a fresh feed. Figures only; nothing is asserted.
//
//   npm run bench -- ingest        (or npx tsx bench/ingest.bench.ts; INGEST_FRAMES / INGEST_TRIALS to change)
import { pathToFileURL } from 'node:url';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { applyFrame, emptyFeed } from '../src/model/feed';
import { selectCounts } from '../src/model/feedSelectors';
import { knownTypes, parseFrame } from '../src/schemas/frames';
import { createFrameBatch, FRAME_BATCH_MAX } from '../src/services/frameBatch';
import { hybridServerFrame, type HybridServerFrame } from '../src/schemas/hybridSocket';
import { standardServerFrame, type StandardServerFrame } from '../src/schemas/standardSocket';
import { HYBRID_TRANSCRIPTS, STANDARD_TRANSCRIPTS, syntheticFrames } from './lib/frames';
import { liveHybridActor } from './lib/liveHybridActor';
import type { Figures } from './run';
import { liveStandardActor } from './lib/liveStandardActor';

const FRAMES = Number(process.env.INGEST_FRAMES ?? 10_000);
const TRIALS = Number(process.env.INGEST_TRIALS ?? 9);
const TARGET_FPS = 20_000;

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = Math.floor(s.length / 2);
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
};
const known = knownTypes(standardServerFrame);
const hybridKnown = knownTypes(hybridServerFrame);

// A full collection before each timed pass: each path pays for its own garbage, not for what the pass before it
// left behind (the standard actor's whole feed, dropped just before the hybrid pass, was collected during it).
setFlagsFromString('--expose-gc');
const collect = runInNewContext('gc') as () => void;

/** What the panel hears from its socket: frames one event each, or a burst's batches (the socket's own batching). */
type Notice<F> = { type: 'socketSession.frame'; frame: F } | { type: 'socketSession.frames'; frames: F[] };

/**
 * A sink for parsed frames as the socket hands them on: batched (a burst: the deferral never runs before the
 * stream is over, so batches of FRAME_BATCH_MAX) or one event per frame; `end()` hands on the rest.
 */
function socketSink<F>(send: (notice: Notice<F>) => void, batched: boolean) {
  const batch = createFrameBatch<F>(
    (frames) =>
      send(
        frames.length === 1
          ? { type: 'socketSession.frame', frame: frames[0]! }
          : { type: 'socketSession.frames', frames },
      ),
    batched ? () => () => {} : undefined,
  );
  return { push: (frame: F) => batch.push(frame), end: () => batch.flush() };
}

function time(fn: () => void): number {
  collect();
  const t0 = performance.now();
  fn();
  return performance.now() - t0;
}

export default async function run(): Promise<Figures> {
  const raw = syntheticFrames(STANDARD_TRANSCRIPTS, FRAMES);
  const hybridRaw = syntheticFrames(HYBRID_TRANSCRIPTS, FRAMES);
  const hybrid: number[] = [];
  let hybridRejected = 0;
  const bytes = raw.reduce((n, r) => n + r.length, 0);
  const hybridBytes = hybridRaw.reduce((n, r) => n + r.length, 0);
  const hybridBare: number[] = [];

  const bare: number[] = [];
  const schema: number[] = [];
  const fold: number[] = [];
  const machine: number[] = [];
  const perFrame: number[] = [];
  let messages = 0;
  let rejected = 0;
  // One unrecorded pass of each warms the JIT.
  for (let trial = -1; trial < TRIALS; trial++) {
    const keep = trial >= 0;
    const b = time(() => {
      for (const r of raw) JSON.parse(r);
    });
    const hb = time(() => {
      for (const r of hybridRaw) JSON.parse(r);
    });
    const s = time(() => {
      for (const r of raw) parseFrame(standardServerFrame, JSON.parse(r), known);
    });
    let feed = emptyFeed;
    const f = time(() => {
      for (const r of raw) {
        const p = parseFrame(standardServerFrame, JSON.parse(r), known);
        if (p.kind === 'frame') feed = applyFrame(feed, p.frame);
      }
    });
    const standardPass = async (batched = true) => {
      const actor = await liveStandardActor();
      let bad = 0;
      const sink = socketSink<StandardServerFrame>((notice) => actor.send(notice), batched);
      const ms = time(() => {
        for (const r of raw) {
          const p = parseFrame(standardServerFrame, JSON.parse(r), known);
          if (p.kind === 'frame') sink.push(p.frame as StandardServerFrame);
          else bad++;
        }
        sink.end();
      });
      if (!actor.getSnapshot().hasTag('live'))
        throw new Error('the stream ended the discussion; the bench frames should not');
      messages = selectCounts(actor.getSnapshot().context.feed).messages;
      rejected = bad;
      actor.stop();
      return ms;
    };
    const hybridPass = async () => {
      const hybridActor = liveHybridActor();
      let hybridBad = 0;
      const sink = socketSink<HybridServerFrame>((notice) => hybridActor.send(notice), true);
      const ms = time(() => {
        for (const r of hybridRaw) {
          const p = parseFrame(hybridServerFrame, JSON.parse(r), hybridKnown);
          if (p.kind === 'frame') sink.push(p.frame);
          else hybridBad++;
        }
        sink.end();
      });
      if (!hybridActor.getSnapshot().hasTag('live'))
        throw new Error('the stream ended the hybrid discussion; the bench frames should not');
      hybridRejected = hybridBad;
      hybridActor.stop();
      return ms;
    };
    // Each path goes first in every other trial: whichever runs second inherits the state the first left (the
    // heap, the caches, the clock of a shared core), and neither should always be the one that does.
    let m: number;
    let h: number;
    if (trial % 2 === 0) {
      m = await standardPass();
      h = await hybridPass();
    } else {
      h = await hybridPass();
      m = await standardPass();
    }
    // A live stream's path (one event per frame), beside the budgeted figure.
    const one = await standardPass(false);
    if (keep) {
      perFrame.push(one);
      bare.push(b);
      hybridBare.push(hb);
      schema.push(s);
      fold.push(f);
      machine.push(m);
      hybrid.push(h);
    }
  }

  const fps = (ms: number) => Math.round(FRAMES / (ms / 1000));
  const r1 = (x: number) => Math.round(x * 10) / 10;
  const r2 = (x: number) => Math.round(x * 100) / 100;
  const mBare = median(bare);
  const mSchema = median(schema);
  const mFold = median(fold);
  const mMachine = median(machine);
  const mHybrid = median(hybrid);
  const hybridShare = median(hybrid.map((h, i) => machine[i] / h));
  const mHybridBare = median(hybridBare);
  // INGEST_DEBUG=1: each trial's standard / hybrid milliseconds, to see the spread behind the median.
  if (process.env.INGEST_DEBUG)
    console.log(
      `  trials (standard/hybrid ms): ${machine.map((m, i) => `${m.toFixed(0)}/${hybrid[i].toFixed(0)}`).join(' ')}`,
    );
  console.log(`\n  ${FRAMES.toLocaleString()} frames (${(bytes / 1e6).toFixed(1)} MB), medians of ${TRIALS}`);
  console.log(`  JSON.parse only                         ${r1(mBare)} ms   ${fps(mBare).toLocaleString()} frames/s`);
  console.log(
    `  + parseFrame (schema)                   ${r1(mSchema)} ms   ${fps(mSchema).toLocaleString()} frames/s`,
  );
  console.log(`  + applyFrame (no machine)               ${r1(mFold)} ms   ${fps(mFold).toLocaleString()} frames/s`);
  const mPerFrame = median(perFrame);
  console.log(
    `  + standardDiscussion machine (bursts)   ${r1(mMachine)} ms   ${fps(mMachine).toLocaleString()} frames/s   (${r1(mMachine / mBare)}× JSON.parse)`,
  );
  console.log(
    `  + standardDiscussion machine (1/event)  ${r1(mPerFrame)} ms   ${fps(mPerFrame).toLocaleString()} frames/s   (${r1(mPerFrame / mBare)}× JSON.parse: a live stream's frames)`,
  );
  console.log(
    `  hybrid: parse → hybridDiscussion machine ${r1(mHybrid)} ms   ${fps(mHybrid).toLocaleString()} frames/s   (${r1(mHybrid / mHybridBare)}× JSON.parse of its ${(hybridBytes / 1e6).toFixed(1)} MB; ${r2(hybridShare)}× the standard path's frames/s, ${r2((hybridShare * hybridBytes) / bytes)}× its bytes/s)`,
  );
  return {
    frames: FRAMES,
    trials: TRIALS,
    megabytes: Math.round(bytes / 1e5) / 10,
    json_parse_ms: r1(mBare),
    json_parse_fps: fps(mBare),
    parse_schema_ms: r1(mSchema),
    parse_schema_fps: fps(mSchema),
    parse_schema_apply_ms: r1(mFold),
    parse_schema_apply_fps: fps(mFold),
    machine_path_ms: r1(mMachine),
    machine_path_fps: fps(mMachine),
    machine_path_ratio_to_json_parse: r1(mMachine / mBare),
    machine_overhead_over_apply: r1(mMachine / mFold),
    machine_path_batch_max: FRAME_BATCH_MAX,
    machine_path_one_event_per_frame_ms: r1(mPerFrame),
    machine_path_one_event_per_frame_ratio_to_json_parse: r1(mPerFrame / mBare),
    hybrid_machine_path_ms: r1(mHybrid),
    hybrid_machine_path_fps: fps(mHybrid),
    hybrid_json_parse_ms: r1(mHybridBare),
    hybrid_machine_path_ratio_to_json_parse: r1(mHybrid / mHybridBare),
    hybrid_megabytes: Math.round(hybridBytes / 1e5) / 10,
    hybrid_fps_to_standard_fps: r2(hybridShare),
    hybrid_bytes_per_s_to_standard: r2((hybridShare * hybridBytes) / bytes),
    hybrid_frames_rejected_by_schema: hybridRejected,
    feed_messages_at_end: messages,
    frames_rejected_by_schema: rejected,
    target_fps: TARGET_FPS,
    within_budget: fps(mMachine) >= TARGET_FPS ? 'yes' : 'NO',
  };
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  run().then(
    (figures) => {
      for (const [k, v] of Object.entries(figures)) console.log(`${k.padEnd(34)} ${v}`);
      process.exit(0);
    },
    (e) => {
      console.error(e);
      process.exit(1);
    },
  );
}
