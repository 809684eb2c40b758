// Hybrid panel budgets:
//   - size: the DiscussionPanel-*.js chunk in dist/ (both panels, loaded lazily after sign-in) and every chunk it
//     imports statically, gzipped; and the part of that not already loaded at start (what opening the panel adds);
//   - replay: a stored 2,000-frame hybrid discussion (the recorded hybrid transcripts cycled with fresh ids, as raw
//     text) through JSON.parse → parseFrame → the REAL hybridDiscussion machine, with the real HybridPanel mounted,
//     in headless Chromium (flags from tests/e2e/harness.ts; page bench/hybridReplay/ built with Vite): the time
//     to ingest, and to the last card in the DOM and painted. Medians of TRIALS fresh pages; the same with the panel mounted only after the last frame, to show what the
//     mounted panel's subscriptions cost the ingest.
// Figures only; nothing is asserted.
//
//   npm run bench -- hybridReplay        (builds dist/ first when stale; HYBRID_REPLAY_FRAMES / _TRIALS to change)
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import type { Server } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { chromium, type Browser } from 'playwright-core';
import { buildIfNeeded, ROOT } from '../scripts/lib/build.mjs';
import { chromiumLaunchOptions } from '../tests/e2e/harness';
import { withTimeout } from '../tests/support/withTimeout';
import { startChunks, staticImports } from './bundle.bench';
import { HYBRID_TRANSCRIPTS, syntheticFrames } from './lib/frames';
import { buildPage, closeServer, median, serve } from './lib/page';
import type { Figures } from './run';
import type { HybridReplayBench, ReplayFigures } from './hybridReplay/main';

const HERE = path.dirname(fileURLToPath(import.meta.url));
const DIST = path.join(ROOT, 'dist');
const FRAMES = Number(process.env.HYBRID_REPLAY_FRAMES ?? 2_000);
const TRIALS = Number(process.env.HYBRID_REPLAY_TRIALS ?? 5);

declare global {
  interface Window {
    hybridReplayBench: HybridReplayBench;
  }
}

const kb = (bytes: number) => Math.round((bytes / 1024) * 10) / 10;
const r1 = (x: number) => Math.round(x * 10) / 10;

/** A chunk and every chunk it imports statically (paths inside dist/). */
function closure(entry: string, read: (p: string) => string): string[] {
  const seen = new Set<string>();
  const queue = [entry];
  while (queue.length > 0) {
    const file = path.posix.normalize(queue.shift()!);
    if (seen.has(file)) continue;
    seen.add(file);
    for (const spec of staticImports(read(file))) {
      if (!spec.startsWith('.') && !spec.startsWith('/')) continue;
      queue.push(spec.startsWith('/') ? spec.slice(1) : path.posix.join(path.posix.dirname(file), spec));
    }
  }
  return [...seen].sort();
}

async function sizes(): Promise<Figures> {
  await buildIfNeeded({ quiet: true });
  const read = (p: string) => readFileSync(path.join(DIST, p), 'utf8');
  const panel = readdirSync(path.join(DIST, 'assets')).find((f) => /^DiscussionPanel-.*\.js$/.test(f));
  if (!panel) return { panel_chunk: 'not found in dist/assets' };
  const gz = (p: string) => gzipSync(readFileSync(path.join(DIST, p)), { level: 9 }).length;
  const files = closure(`assets/${panel}`, read);
  const atStart = new Set(startChunks(read, read('index.html')));
  const added = files.filter((f) => !atStart.has(f));
  const total = (list: string[]) => list.reduce((n, f) => n + gz(f), 0);
  console.log(
    `\n  ${panel}: ${kb(gz(`assets/${panel}`))} KB gzip; with its static imports ${kb(total(files))} KB (${files.length} chunks); not already loaded at start ${kb(total(added))} KB`,
  );
  for (const f of files)
    console.log(`    ${f.padEnd(48)} ${String(kb(gz(f))).padStart(7)} KB${atStart.has(f) ? '  (start)' : ''}`);
  return {
    panel_chunk: panel,
    panel_chunk_gzip_kb: kb(gz(`assets/${panel}`)),
    panel_with_static_imports_gzip_kb: kb(total(files)),
    panel_static_import_chunks: files.length,
    panel_added_after_start_gzip_kb: kb(total(added)),
  };
}

async function replay(): Promise<Figures> {
  const work = await mkdtemp(path.join(tmpdir(), 'agora-hybridreplay-bench-'));
  let server: Server | undefined;
  let browser: Browser | undefined;
  try {
    const dist = await buildPage(path.join(HERE, 'hybridReplay'), work);
    const served = await serve(dist);
    server = served.server;
    browser = await chromium.launch({ ...chromiumLaunchOptions, timeout: 30_000 });
    const context = await browser.newContext({ viewport: { width: 1280, height: 1000 } });
    const raw = syntheticFrames(HYBRID_TRANSCRIPTS, FRAMES);
    const results: ReplayFigures[] = [];
    const unmounted: ReplayFigures[] = [];
    for (let trial = -1; trial < TRIALS * 2; trial++) {
      const mounted = trial < 0 || trial % 2 === 0;
      const page = await context.newPage();
      const errors: string[] = [];
      page.on('pageerror', (e) => errors.push(e.message));
      await page.goto(served.url, { waitUntil: 'load' });
      await page.waitForFunction(() => typeof window.hybridReplayBench === 'object');
      const r = await withTimeout(
        page.evaluate(([frames, m]) => window.hybridReplayBench.replay(frames, m), [raw, mounted] as const),
        120_000,
        'replay',
      ).catch(async (e: Error) => {
        const status = await page.evaluate(() => window.hybridReplayBench.status()).catch(() => 'unknown');
        throw new Error(`${e.message} (${status})${errors.length ? `; the page said: ${errors.join('; ')}` : ''}`);
      });
      if (errors.length > 0) throw new Error(`bench page failed: ${errors.join('; ')}`);
      if (trial >= 0) (mounted ? results : unmounted).push(r); // the first page warms the caches
      await page.close();
    }
    const ingest = median(results.map((r) => r.ingestMs));
    const total = median(results.map((r) => r.totalMs));
    const last = results[results.length - 1];
    const ingestBare = median(unmounted.map((r) => r.ingestMs));
    const totalBare = median(unmounted.map((r) => r.totalMs));
    console.log(
      `\n  ${FRAMES.toLocaleString()} hybrid frames → ${last.messages.toLocaleString()} feed items (${last.rejected} rejected by the schema), medians of ${TRIALS} pages in headless Chromium:`,
    );
    console.log(
      `  JSON.parse → parseFrame → hybridDiscussion machine: ${r1(ingest)} ms (${Math.round(FRAMES / (ingest / 1000)).toLocaleString()} frames/s)`,
    );
    console.log(
      `  … to the last card in the DOM and painted (HybridPanel mounted): ${r1(total)} ms; ${last.domNodes} DOM nodes in the feed`,
    );
    console.log(
      `  the same with the panel mounted only after the last frame: ingest ${r1(ingestBare)} ms, to painted ${r1(totalBare)} ms\n`,
    );
    return {
      replay_environment: 'headless Chromium',
      replay_frames: FRAMES,
      replay_feed_items: last.messages,
      replay_rejected_frames: last.rejected,
      replay_trials: TRIALS,
      replay_ingest_ms: r1(ingest),
      replay_ingest_fps: Math.round(FRAMES / (ingest / 1000)),
      replay_to_painted_ms: r1(total),
      replay_ingest_ms_panel_not_mounted: r1(ingestBare),
      replay_to_painted_ms_mount_after: r1(totalBare),
      replay_feed_dom_nodes: last.domNodes,
    };
  } finally {
    await browser?.close().catch(() => {});
    await closeServer(server);
    await rm(work, { recursive: true, force: true });
  }
}

export default async function run(): Promise<Figures> {
  const watchdog = setTimeout(() => {
    console.error('hybridReplay bench: gave up after 10 min');
    process.exit(1);
  }, 10 * 60_000);
  watchdog.unref();
  try {
    return { ...(await sizes()), ...(await replay()) };
  } finally {
    clearTimeout(watchdog);
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href && existsSync(HERE)) {
  run().then(
    (figures) => {
      for (const [k, v] of Object.entries(figures)) console.log(`${k.padEnd(36)} ${v}`);
      process.exit(0);
    },
    (e) => {
      console.error(e);
      process.exit(1);
    },
  );
}
