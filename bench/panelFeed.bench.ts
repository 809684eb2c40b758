// Panel feed budgets, in headless Chromium (flags from tests/e2e/harness.ts), on the real FeedList
// (react-virtuoso) with MessageCard rows subscribed to a REAL standardDiscussion actor, in the panel's CSS at
// 450 px wide (page: bench/panelFeed/, built with Vite, served from 127.0.0.1):
//   - a feed of 5,000 messages (recorded agent messages cycled with fresh ids); then APPENDS one message at a time:
//     median and p95 of send → the new card in the DOM → the next animation frame (painted), which includes waiting
//     for the display's next frame; and the append's own work (the commit plus the rendering of the frame that paints
//     it) with how many frames it took to show. 'Within one frame' is: painted in the first frame after it arrived,
//     with that work ≤ 16.7 ms;
//   - the number of DOM nodes in the feed (target < 300) and rows rendered;
//   - a stream of 50 deltas/s into one message for 5 s, with a PerformanceObserver for long tasks: the longest
//     (target: none over 50 ms) and the worst gap between animation frames.
// Figures only; nothing is asserted.
//
//   npm run bench -- panelFeed        (PANEL_FEED_MESSAGES / PANEL_FEED_APPENDS to change)
import { mkdtemp, rm } from 'node:fs/promises';
import type { Server } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { chromium, type Browser } from 'playwright-core';
import type { StandardServerFrame } from '../src/schemas/standardSocket';
import { chromiumLaunchOptions } from '../tests/e2e/harness';
import { withTimeout } from '../tests/support/withTimeout';
import { STANDARD_TRANSCRIPTS, syntheticFrames } from './lib/frames';
import { buildPage, closeServer, median, percentile, serve } from './lib/page';
import type { Figures } from './run';
import type { PanelFeedBench } from './panelFeed/main';

const HERE = path.dirname(fileURLToPath(import.meta.url));
const MESSAGES = Number(process.env.PANEL_FEED_MESSAGES ?? 5_000);
const APPENDS = Number(process.env.PANEL_FEED_APPENDS ?? 60);
const DELTAS_PER_SECOND = 50;
const STREAM_SECONDS = 5;
const STEP_TIMEOUT_MS = 120_000;

declare global {
  interface Window {
    panelFeedBench: PanelFeedBench;
  }
}

/** `n` agent_message frames from the recordings, with fresh ids. */
function messageFrames(n: number): StandardServerFrame[] {
  const out: StandardServerFrame[] = [];
  for (let size = n * 4; out.length < n; size *= 2) {
    out.length = 0;
    for (const raw of syntheticFrames(STANDARD_TRANSCRIPTS, size)) {
      const f = JSON.parse(raw) as StandardServerFrame;
      if (f.type === 'agent_message') out.push(f);
      if (out.length === n) break;
    }
  }
  return out;
}

export default async function run(): Promise<Figures> {
  const watchdog = setTimeout(() => {
    console.error('panelFeed bench: gave up after 10 min');
    process.exit(1);
  }, 10 * 60_000);
  watchdog.unref();
  const work = await mkdtemp(path.join(tmpdir(), 'agora-panelfeed-bench-'));
  let server: Server | undefined;
  let browser: Browser | undefined;
  try {
    const dist = await buildPage(path.join(HERE, 'panelFeed'), work);
    const served = await serve(dist);
    server = served.server;
    browser = await chromium.launch({ ...chromiumLaunchOptions, timeout: 30_000 });
    const page = await (await browser.newContext({ viewport: { width: 1280, height: 800 } })).newPage();
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    await page.goto(served.url, { waitUntil: 'load' });
    await page.waitForFunction(() => typeof window.panelFeedBench === 'object');

    const all = messageFrames(MESSAGES + APPENDS);
    const initial = all.slice(0, MESSAGES);
    const appended = all
      .slice(MESSAGES)
      .map(
        (f, i) =>
          ({ ...f, content: `Appended message ${i}: ${(f as { content: string }).content}` }) as StandardServerFrame,
      );
    const loaded = await withTimeout(
      page.evaluate((frames) => window.panelFeedBench.load(frames), initial),
      STEP_TIMEOUT_MS,
      'load',
    );
    const nodesBefore = await page.evaluate(() => window.panelFeedBench.domNodes());
    const append = await withTimeout(
      page.evaluate((frames) => window.panelFeedBench.append(frames), appended),
      STEP_TIMEOUT_MS,
      'append',
    );
    const nodesAfter = await page.evaluate(() => window.panelFeedBench.domNodes());
    const stream = await withTimeout(
      page.evaluate(([rate, secs]) => window.panelFeedBench.stream(rate, secs), [
        DELTAS_PER_SECOND,
        STREAM_SECONDS,
      ] as const),
      STEP_TIMEOUT_MS,
      'stream',
    );
    if (errors.length > 0) throw new Error(`bench page failed: ${errors.join('; ')}`);

    const samples = append.samples.slice(5); // the first few warm the row components
    const r1 = (x: number) => Math.round(x * 10) / 10;
    const longest = stream.longTasks.length ? Math.max(...stream.longTasks) : 0;
    console.log(
      `\n  Feed of ${loaded.messages.toLocaleString()} messages (loaded and first painted in ${r1(loaded.ms)} ms)`,
    );
    const appendWork = append.work.slice(5);
    const frames = append.frames.slice(5);
    const inFirstFrame = frames.filter((n) => n === 1).length;
    console.log(
      `  append one message → card in the DOM → painted: median ${r1(median(samples))} ms, p95 ${r1(percentile(samples, 95))} ms (${samples.length} appends; includes waiting for the display's next frame)`,
    );
    console.log(
      `  the append's own work (commit + the frame that paints it): median ${r1(median(appendWork))} ms, p95 ${r1(percentile(appendWork, 95))} ms; painted in the first frame after it arrived: ${inFirstFrame}/${frames.length}`,
    );
    console.log(
      `  DOM nodes in the feed: ${nodesAfter.feed} (${nodesAfter.rows} rows of ~${nodesAfter.avgRowPx} px rendered in a ${nodesAfter.viewportPx} px viewport, 200 px overscan each way)`,
    );
    console.log(
      `  ${stream.deltas} deltas at ${DELTAS_PER_SECOND}/s: ${stream.longTasks.length} long tasks, longest ${r1(longest)} ms; worst frame gap ${r1(stream.worstFrameGapMs)} ms\n`,
    );
    return {
      messages: loaded.messages,
      load_and_first_paint_ms: r1(loaded.ms),
      append_commit_median_ms: r1(median(append.commits.slice(5))),
      append_commit_p95_ms: r1(percentile(append.commits.slice(5), 95)),
      append_paint_median_ms: r1(median(samples)),
      append_paint_p95_ms: r1(percentile(samples, 95)),
      append_paint_max_ms: r1(Math.max(...samples)),
      append_work_median_ms: r1(median(appendWork)),
      append_work_p95_ms: r1(percentile(appendWork, 95)),
      append_painted_in_first_frame: `${inFirstFrame}/${frames.length}`,
      append_budget: 'work p95 ≤ 16.7 ms and painted in the first frame',
      appends: samples.length,
      feed_dom_nodes: nodesAfter.feed,
      feed_dom_nodes_before_appends: nodesBefore.feed,
      feed_rows_rendered: nodesAfter.rows,
      feed_viewport_px: nodesAfter.viewportPx,
      feed_avg_row_px: nodesAfter.avgRowPx,
      dom_nodes_target: '< 300',
      stream_deltas: stream.deltas,
      stream_long_tasks: stream.longTasks.length,
      stream_longest_task_ms: r1(longest),
      stream_worst_frame_gap_ms: r1(stream.worstFrameGapMs),
      stream_final_text_chars: stream.finalLength,
      within_budget:
        nodesAfter.feed < 300 && longest <= 50 && percentile(appendWork, 95) <= 16.7 && inFirstFrame === frames.length
          ? 'yes'
          : 'NO',
    };
  } finally {
    await browser?.close().catch(() => {});
    await closeServer(server);
    await rm(work, { recursive: true, force: true });
    clearTimeout(watchdog);
  }
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
