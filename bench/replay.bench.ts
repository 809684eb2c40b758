// Replay budgets (History → Replay), in the built app in headless Chromium (flags from tests/e2e/harness.ts),
// served by the real server (in-memory PGlite) with a stored 2,000-turn hybrid discussion (3 agents, three frames
// around each turn, positions and consensus on every turn) seeded through its store:
//   - open: the 'Replay' button clicked on the opened discussion → the first painted frame that shows the replay
//     (its Timeline slider in the DOM, then the next animation frame's paint). Budget ≤ 300 ms. history_open is
//     opening the discussion from History's list ('Open' → its read-only view painted: fetch, parse, fold, one feed
//     per turn), which comes before the Replay button is there.
//   - step: ArrowRight on the focused 'Timeline' slider (a real key press): the step's main-thread work, i.e. the
//     key event with the commit it causes, plus the rendering of the frame that paints it (as panelFeed counts an
//     append). Budget: p95 ≤ 16.7 ms (one frame at 60 Hz), painted in the first frame after the key.
// Figures only; nothing is asserted.
//
//   npm run bench -- replay        (builds dist/ first when stale; REPLAY_TURNS / REPLAY_TRIALS / REPLAY_STEPS)
// REPLAY_DIST=<dir> serves another build (e.g. `vite build --minify false --outDir <dir>`, for readable names) and
// REPLAY_PROFILE=<file>.cpuprofile records a CPU profile of the Timeline steps, REPLAY_TRACE=<file>.json a Chromium
// trace of them, REPLAY_SHOT=<file>.png a screenshot after them.
import { randomUUID } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { chromium, type Browser, type Page } from 'playwright-core';
import { buildServer, type BuiltServer } from '../server/app';
import { createDiscussion, finishDiscussion, FrameWriter } from '../server/engine/store';
import { createLlmRegistry, createOfflineProvider } from '../server/providers';
import { createNoSpeech } from '../server/providers/speech/none';
import { createNoTranscription } from '../server/providers/transcription/none';
import { buildIfNeeded, ROOT } from '../scripts/lib/build.mjs';
import { TOKEN_STORAGE_KEYS, USER_STORAGE_KEYS } from '../src/schemas/constants';
import { chromiumLaunchOptions } from '../tests/e2e/harness';
import { withTimeout } from '../tests/support/withTimeout';
import { median, percentile } from './lib/page';
import type { Figures } from './run';

const TURNS = Number(process.env.REPLAY_TURNS ?? 2_000);
const TRIALS = Number(process.env.REPLAY_TRIALS ?? 5);
const STEPS = Number(process.env.REPLAY_STEPS ?? 120);
/** The Timeline's steps and the bare slider's alternate in this many blocks each. */
const STEP_BLOCKS = 6;
const TOPIC = 'Should the town make its buses fare-free for residents?';

interface Agent {
  id: string;
  name: string;
}

/** The frames of a long hybrid discussion, as the live engine stores them. */
function frames(agents: Agent[]): Record<string, unknown>[] {
  const out: Record<string, unknown>[] = [];
  const options = [
    { id: 'o1', label: 'Fare-free for residents' },
    { id: 'o2', label: 'Cheaper passes first' },
    { id: 'o3', label: 'Wait for a trial' },
  ];
  out.push({
    type: 'discussion_initialized',
    session_id: 'replay-bench',
    participants: agents.map((a) => ({ id: a.id, name: a.name })),
    topic: TOPIC,
    max_rounds: Math.ceil(TURNS / agents.length),
  });
  out.push({ type: 'positions', options });
  for (let t = 1; t <= TURNS; t++) {
    const a = agents[t % agents.length];
    if (t % agents.length === 1)
      out.push({ type: 'round_start', round: Math.ceil(t / 3), max_rounds: Math.ceil(TURNS / 3) });
    out.push({ type: 'agent_status', agent_id: a.id, agent_name: a.name, status: 'thinking' });
    const option = options[(t >> 4) % 3];
    out.push({
      type: 'agent_message',
      id: `m${t}`,
      agent_id: a.id,
      agent_name: a.name,
      agent_role: 'Planner',
      message_type: 'hybrid',
      content: `Turn ${t}: ${a.name} weighs the fares, the passes and the trial once more, and says why in two sentences.`,
      confidence: 0.5 + ((t * 7) % 50) / 100,
      reasoning_chain: ['because'],
      position: option.label,
      option_id: option.id,
      changed: t % 16 === 0 ? 'argument' : null,
      consensus_score: ((t * 13) % 100) / 100,
      leader_id: 'o1',
    });
    out.push({ type: 'agent_status', agent_id: a.id, agent_name: a.name, status: 'idle' });
  }
  out.push({ type: 'discussion_ended', reason: 'completed', session_id: 'replay-bench' });
  return out;
}

async function startServer(dir: string) {
  return buildServer(
    {
      port: 0,
      host: '127.0.0.1',
      databaseUrl: 'memory://',
      dataDir: dir,
      mediaDir: path.join(dir, 'media'),
      jwtSecret: 'bench-secret-0123456789abcdef',
      logLevel: 'silent',
      staticDir: process.env.REPLAY_DIST ?? path.join(ROOT, 'dist'),
      ollamaHost: undefined,
      openaiBaseUrl: undefined,
      loginRateLimit: 10_000,
    },
    {
      providers: {
        llm: createLlmRegistry([createOfflineProvider({ tokensPerSecond: 0, thinkMs: 0 })]),
        speech: createNoSpeech(),
        transcription: createNoTranscription(),
      },
    },
  );
}

/** A user with three agents on the canvas and the stored discussion, through the API and the server's store. */
async function seed(server: BuiltServer, url: string) {
  const call = async (p: string, body: unknown, token?: string) => {
    const r = await fetch(url + p, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
      body: JSON.stringify(body),
    });
    if (!r.ok) throw new Error(`POST ${p}: ${r.status} ${await r.text()}`);
    return (await r.json()) as Record<string, any>;
  };
  const login = await call('/auth/register', { email: 'replay-bench@example.com', password: 'bench-pass-1' });
  const token = String(login.access_token);
  const agents: Agent[] = [];
  for (const [name, role] of [
    ['Ada', 'Planner'],
    ['Bo', 'Economist'],
    ['Cy', 'Resident'],
  ]) {
    const a = await call(
      '/agents/',
      { name, role, prompt: `You are the ${role.toLowerCase()}.`, model: 'offline' },
      token,
    );
    agents.push({ id: String(a.id), name });
  }
  const db = server.ctx.db;
  const id = randomUUID();
  await createDiscussion(db, {
    id,
    userId: String(login.user.id),
    sessionId: 'replay-bench',
    endpoint: '/ws/hybrid',
    topic: TOPIC,
    config: {
      panel: 'hybrid',
      agent_ids: agents.map((a) => a.id),
      participants: agents.map((a) => ({ id: a.id, name: a.name, role: 'Planner', model: 'offline' })),
    },
  });
  let failure: unknown = null;
  const writer = new FrameWriter(db, id, (e) => (failure = e));
  const all = frames(agents);
  all.forEach((f, seq) => writer.push(seq, JSON.stringify(f)));
  await writer.flush();
  if (failure) throw failure;
  await finishDiscussion(db, id, 'ended');
  return { token, user: login.user, frames: all.length };
}

/** In the page: resolves just after the first paint once `ready()` holds (a task queued from rAF runs post-paint). */
const PAGE_HELPERS = `
window.__afterPaint = () => new Promise((resolve) => requestAnimationFrame(() => {
  const frameStart = performance.now();
  const ch = new MessageChannel();
  ch.port1.onmessage = () => resolve({ frameStart, painted: performance.now() });
  ch.port2.postMessage(null);
}));
`;

const dialog = (page: Page) => page.getByRole('dialog', { name: 'Past discussions' });

/** Clicks a button in the page and times the click → the first painted frame in which `selector` is in the DOM. */
async function clickToPaint(page: Page, button: string, selector: string): Promise<number> {
  return page.evaluate(
    async ([name, sel]) => {
      const b = [...document.querySelectorAll('button')].find((x) => x.textContent?.trim() === name);
      if (!b) throw new Error(`no ${name} button`);
      const w = window as unknown as { __afterPaint: () => Promise<{ painted: number }> };
      const t0 = performance.now();
      b.click();
      for (;;) {
        const { painted } = await w.__afterPaint();
        if (document.querySelector(sel)) return painted - t0;
      }
    },
    [button, selector] as const,
  );
}

/**
 * The Timeline step samples: a keydown listener times each real key press. Its work is the key's task (up to the
 * next task, or to the first frame when Chromium renders first, as it does after input) plus the rendering of the
 * first frame after the key, the one that paints the slider's new value. The replay's feed, canvas and chart
 * follow in renders of their own (ReplayView's deferred turn): `feed` is key → the first painted frame in which
 * the feed shows the new turn (`data-turn` on `.replay__feed`; the bare slider has no feed, so it is 0).
 */
const STEP_PROBE = `
window.__steps = [];
// A user-blocking task runs before the page's ordinary tasks already queued (React's scheduler posts messages), so
// it marks the end of the key's task, or of a frame, rather than of whatever work was queued behind them.
const urgent = (f) => globalThis.scheduler?.postTask
  ? scheduler.postTask(f, { priority: 'user-blocking' })
  : (() => { const ch = new MessageChannel(); ch.port1.onmessage = f; ch.port2.postMessage(null); })();
const feedTurn = () => document.querySelector('.replay__feed')?.dataset.turn;
document.addEventListener('keydown', (e) => {
  if (e.key !== 'ArrowRight') return;
  const slider = document.activeElement;
  const before = slider.value;
  const t0 = performance.now();
  let committed = null;
  urgent(() => { if (committed === null) committed = performance.now() - t0; });
  requestAnimationFrame(() => {
    const frameStart = performance.now();
    if (committed === null) committed = frameStart - t0;
    const first = slider.value !== before;
    const wantsFeed = slider.closest('.replay__timeline') !== null;
    let fed = feedTurn() === slider.value;
    urgent(async () => {
      const end = performance.now();
      let feed = 0;
      if (wantsFeed) {
        feed = end - t0;
        for (let i = 0; !fed && i < 60; i++) {
          await new Promise((r) => requestAnimationFrame(() => { fed = feedTurn() === slider.value; r(); }));
          await new Promise((r) => urgent(r));
          feed = performance.now() - t0;
        }
      }
      window.__steps.push({ work: committed + (end - frameStart), commit: committed, painted: end - t0, first, feed });
    });
  });
}, true);
`;

/** `n` real ArrowRight presses on the focused slider, each waited for; the probe's samples past the first `skip`. */
async function pressSteps(page: Page, n: number, skip = 5): Promise<Step[]> {
  await page.evaluate(() => {
    (window as unknown as { __steps: unknown[] }).__steps = [];
  });
  for (let i = 0; i < n; i++) {
    await page.keyboard.press('ArrowRight');
    await page.waitForFunction((k) => (window as unknown as { __steps: unknown[] }).__steps.length > k, i);
  }
  return (await page.evaluate(() => (window as unknown as { __steps: Step[] }).__steps)).slice(skip);
}

interface Step {
  work: number;
  commit: number;
  painted: number;
  /** The slider's new value was painted in the first frame after the key. */
  first: boolean;
  /** Key → the first painted frame whose feed shows the new turn (0 for the bare slider). */
  feed: number;
}

export default async function run(): Promise<Figures> {
  const watchdog = setTimeout(() => {
    console.error('replay bench: gave up after 10 min');
    process.exit(1);
  }, 10 * 60_000);
  watchdog.unref();
  await buildIfNeeded({ quiet: true });
  const dir = await mkdtemp(path.join(tmpdir(), 'agora-replay-bench-'));
  let server: BuiltServer | undefined;
  let browser: Browser | undefined;
  try {
    server = await startServer(dir);
    const url = (await server.listen()).replace('0.0.0.0', '127.0.0.1').replace('localhost', '127.0.0.1');
    const seeded = await seed(server, url);
    browser = await chromium.launch({ ...chromiumLaunchOptions, timeout: 30_000 });
    const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
    await context.addInitScript(
      ([token, user, tokenKeys, userKeys]) => {
        for (const k of tokenKeys) localStorage.setItem(k, token);
        for (const k of userKeys) localStorage.setItem(k, user);
      },
      [seeded.token, JSON.stringify(seeded.user), [...TOKEN_STORAGE_KEYS], [...USER_STORAGE_KEYS]] as const,
    );
    await context.addInitScript(PAGE_HELPERS);
    const page = await context.newPage();
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    await page.goto(url, { waitUntil: 'load' });
    const panel = page.getByRole('complementary', { name: 'Discussion', exact: true });
    await panel.getByRole('button', { name: 'History' }).click({ timeout: 30_000 });
    await dialog(page).getByRole('listitem', { name: TOPIC }).waitFor({ timeout: 30_000 });

    const historyOpens: number[] = [];
    const opens: number[] = [];
    let turnsShown = '';
    // The first open warms the code and the caches; each trial opens the discussion from the list, then Replay.
    const openCdp = process.env.REPLAY_OPEN_PROFILE ? await page.context().newCDPSession(page) : null;
    if (openCdp) {
      await openCdp.send('Profiler.enable');
      await openCdp.send('Profiler.setSamplingInterval', { interval: 100 });
      await openCdp.send('Profiler.start');
    }
    for (let trial = -1; trial < TRIALS; trial++) {
      const historyOpen = await withTimeout(clickToPaint(page, 'Open', '.history-opened'), 60_000, 'open');
      await dialog(page).getByRole('button', { name: 'Replay' }).waitFor();
      const open = await withTimeout(
        clickToPaint(page, 'Replay', '.replay__timeline input[type=range]'),
        60_000,
        'replay',
      );
      turnsShown = (await dialog(page).locator('.replay__state span').first().textContent()) ?? '';
      if (trial >= 0) {
        historyOpens.push(historyOpen);
        opens.push(open);
      }
      await dialog(page).getByRole('button', { name: 'Close replay' }).click();
      await dialog(page).getByRole('button', { name: '← All discussions' }).click();
      await dialog(page).getByRole('listitem', { name: TOPIC }).waitFor();
    }

    if (openCdp) {
      const { profile } = await openCdp.send('Profiler.stop');
      await writeFile(process.env.REPLAY_OPEN_PROFILE!, JSON.stringify(profile));
    }
    // Timeline steps from the middle of the discussion, one real key press at a time.
    await dialog(page).getByRole('button', { name: 'Open' }).click();
    await dialog(page).getByRole('button', { name: 'Replay' }).click();
    const slider = dialog(page).getByRole('slider', { name: 'Timeline' });
    const box = (await slider.boundingBox())!;
    await page.mouse.click(box.x + box.width / 2, box.y + box.height / 2);
    const start = Number(await slider.inputValue());
    await slider.focus();
    await page.evaluate(STEP_PROBE);
    const cdp = process.env.REPLAY_PROFILE ? await page.context().newCDPSession(page) : null;
    if (cdp) {
      await cdp.send('Profiler.enable');
      await cdp.send('Profiler.setSamplingInterval', { interval: 100 });
      await cdp.send('Profiler.start');
    }
    // The baseline: the same key on a bare range input (no listener) beside the Timeline in the same page, measured
    // the same way; on this shared, software-rendered VM a step that does nothing costs this much. The two are
    // pressed in alternating blocks, each first in every other block, so the machine's load falls on both alike.
    await page.evaluate(() => {
      const bare = document.createElement('input');
      bare.type = 'range';
      bare.max = '5000';
      bare.value = '1000';
      bare.id = 'bare-slider';
      bare.setAttribute('aria-label', 'Bare');
      document.querySelector('.replay__controls')?.append(bare);
    });
    const bareSlider = page.locator('#bare-slider');
    if (process.env.REPLAY_TRACE) await browser.startTracing(page, { path: process.env.REPLAY_TRACE });
    const steps: Step[] = [];
    const bare: Step[] = [];
    const perBlock = Math.max(4, Math.ceil(STEPS / STEP_BLOCKS));
    for (let block = 0; block < STEP_BLOCKS; block++) {
      for (const side of block % 2 === 0 ? ['timeline', 'bare'] : ['bare', 'timeline']) {
        await (side === 'timeline' ? slider : bareSlider).focus();
        // The first two of a block pay for the change of focus; the first block's also warm the code.
        const got = await pressSteps(page, perBlock + 2, 2);
        (side === 'timeline' ? steps : bare).push(...got);
      }
    }
    if (process.env.REPLAY_TRACE) await browser.stopTracing();
    if (cdp) {
      const { profile } = await cdp.send('Profiler.stop');
      await writeFile(process.env.REPLAY_PROFILE!, JSON.stringify(profile));
    }
    const end = Number(await slider.inputValue());
    if (process.env.REPLAY_SHOT) await page.screenshot({ path: process.env.REPLAY_SHOT });
    const nodes = await page.evaluate(() => document.querySelector('.replay')?.getElementsByTagName('*').length ?? 0);
    if (errors.length > 0) throw new Error(`the page failed: ${errors.join('; ')}`);

    const r1 = (x: number) => Math.round(x * 10) / 10;
    const work = steps.map((s) => s.work);
    const firstFrame = steps.filter((s) => s.first).length;
    const bareWork = bare.map((s) => s.work);
    const openMs = median(opens);
    console.log(
      `\n  ${TURNS.toLocaleString()}-turn hybrid discussion (${seeded.frames.toLocaleString()} stored frames; the replay says "${turnsShown}"), medians of ${TRIALS} opens in headless Chromium:`,
    );
    console.log(`  History 'Open' → read-only view painted: ${r1(median(historyOpens))} ms`);
    console.log(`  'Replay' → first painted frame of the replay: ${r1(openMs)} ms (budget 300 ms)`);
    console.log(
      `  Timeline ArrowRight, turn ${start} → ${end}: work median ${r1(median(work))} ms, p95 ${r1(percentile(work, 95))} ms (budget 16.7 ms); key → painted p95 ${r1(
        percentile(
          steps.map((s) => s.painted),
          95,
        ),
      )} ms; painted in the first frame: ${firstFrame}/${steps.length}; ${nodes} DOM nodes in the replay`,
    );
    const feedPainted = steps.map((s) => s.feed);
    console.log(
      `  the feed, canvas and chart caught up (key → the first painted frame whose feed shows the new turn): median ${r1(median(feedPainted))} ms, p95 ${r1(percentile(feedPainted, 95))} ms`,
    );
    console.log(
      `  the same key on a bare range input in the same page: work median ${r1(median(bareWork))} ms, p95 ${r1(percentile(bareWork, 95))} ms; Timeline step ÷ bare step (p95): ${r1(percentile(work, 95) / percentile(bareWork, 95))}×\n`,
    );
    return {
      replay_environment: 'headless Chromium, built app, real server',
      turns: TURNS,
      stored_frames: seeded.frames,
      trials: TRIALS,
      history_open_to_painted_ms_median: r1(median(historyOpens)),
      open_to_painted_ms_median: r1(openMs),
      open_to_painted_ms_max: r1(Math.max(...opens)),
      open_budget_ms: 300,
      open_ratio: Math.round((openMs / 300) * 100) / 100,
      steps: steps.length,
      step_work_ms_median: r1(median(work)),
      step_work_ms_p95: r1(percentile(work, 95)),
      step_commit_ms_p95: r1(
        percentile(
          steps.map((s) => s.commit),
          95,
        ),
      ),
      step_key_to_painted_ms_p95: r1(
        percentile(
          steps.map((s) => s.painted),
          95,
        ),
      ),
      step_painted_in_first_frame: `${firstFrame}/${steps.length}`,
      step_feed_painted_ms_median: r1(median(feedPainted)),
      step_feed_painted_ms_p95: r1(percentile(feedPainted, 95)),
      step_budget_ms: 16.7,
      step_ratio: Math.round((percentile(work, 95) / 16.7) * 100) / 100,
      bare_step_work_ms_median: r1(median(bareWork)),
      bare_step_work_ms_p95: r1(percentile(bareWork, 95)),
      step_work_p95_ratio_to_bare: Math.round((percentile(work, 95) / percentile(bareWork, 95)) * 100) / 100,
      replay_dom_nodes: nodes,
    };
  } finally {
    await browser?.close().catch(() => {});
    await server?.close().catch(() => {});
    await rm(dir, { recursive: true, force: true });
    clearTimeout(watchdog);
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
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
