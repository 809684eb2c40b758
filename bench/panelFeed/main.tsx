// The panel feed bench page: the real FeedList (react-virtuoso) with FeedRowView rows (one bubble per turn), each row subscribed to its
// own message in a REAL standardDiscussion actor (as StandardPanel's FeedRow does), inside the panel's own CSS and
// a 450 px panel. The driver (bench/panelFeed.bench.ts) loads a feed, then measures through window.panelFeedBench.
import { useSelector } from '@xstate/react';
import { useMemo } from 'react';
import { createRoot } from 'react-dom/client';
import type { StandardDiscussionActorRef } from '../../src/machines/discussionPanel.machine';
import { selectFeed } from '../../src/machines/discussionPanel.selectors';
import { selectItem, selectMessageIds } from '../../src/model/feedSelectors';
import type { StandardServerFrame } from '../../src/schemas/standardSocket';
import { FeedList } from '../../src/ui/discussion/common/FeedList';
import { FeedRowView } from '../../src/ui/discussion/common/FeedRow';
import { liveStandardActor } from '../lib/liveStandardActor';
import '../../src/ui/styles.css';
import '../../src/ui/discussion/discussion.css';

export interface AppendFigures {
  /** send → the new card in the DOM → the next animation frame (painted): includes waiting for that frame. */
  samples: number[];
  /** Send → the card committed to the DOM (the work, without waiting for the display's next frame). */
  commits: number[];
  /**
   * The append's main-thread work: the commit plus the rendering of the frame that paints it (from that frame's
   * start to just after its paint), without the idle wait for the display's next frame.
   */
  work: number[];
  /** How many frames until the card showed: 1 means the first frame after it arrived painted it. */
  frames: number[];
}
export interface StreamFigures {
  deltas: number;
  longTasks: number[];
  worstFrameGapMs: number;
  finalLength: number;
}
export interface PanelFeedBench {
  load(frames: StandardServerFrame[]): Promise<{ messages: number; ms: number }>;
  append(frames: StandardServerFrame[]): Promise<AppendFigures>;
  domNodes(): { feed: number; rows: number; viewportPx: number; avgRowPx: number };
  stream(perSecond: number, seconds: number): Promise<StreamFigures>;
}
declare global {
  interface Window {
    panelFeedBench: PanelFeedBench;
  }
}

function FeedRow({ discussion, id }: { discussion: StandardDiscussionActorRef; id: string }) {
  const item = useSelector(discussion, (s) => selectItem(s.context.feed, id));
  return item ? <FeedRowView item={item} /> : null;
}

function Feed({ discussion }: { discussion: StandardDiscussionActorRef }) {
  const feed = useSelector(discussion, selectFeed);
  const ids = useMemo(() => selectMessageIds(feed), [feed]);
  return (
    <FeedList
      ids={ids}
      label="Discussion messages"
      renderRow={(id) => <FeedRow discussion={discussion} id={id} />}
      empty={<p>No messages</p>}
    />
  );
}

const frame = () => new Promise<number>((resolve) => requestAnimationFrame(resolve));
/**
 * Resolves just after the next paint: a task queued from a requestAnimationFrame callback runs once that frame has
 * been rendered (the usual 'after next paint' measure, as INP counts to the next paint).
 */
const afterNextPaint = () =>
  new Promise<{ frameStart: number; painted: number }>((resolve) =>
    requestAnimationFrame(() => {
      const frameStart = performance.now();
      const channel = new MessageChannel();
      channel.port1.onmessage = () => resolve({ frameStart, painted: performance.now() });
      channel.port2.postMessage(null);
    }),
  );

const stage = document.getElementById('stage')!;
stage.className = 'discussion-panel';
const panel = document.createElement('div');
panel.className = 'tabpanel';
stage.appendChild(panel);
const actorPromise = liveStandardActor();
const send = (actor: StandardDiscussionActorRef, f: StandardServerFrame) =>
  actor.send({ type: 'socketSession.frame', frame: f });
const feedEl = () => stage.querySelector('.feed') as HTMLElement | null;
const hasCard = (text: string) =>
  [...stage.querySelectorAll('.message-card__text')].some((p) => p.textContent === text);

window.panelFeedBench = {
  async load(frames) {
    const actor = await actorPromise;
    const t0 = performance.now();
    for (const f of frames) send(actor, f);
    createRoot(panel).render(<Feed discussion={actor} />);
    while (!stage.querySelector('.message-card')) await frame();
    await frame();
    return { messages: selectMessageIds(actor.getSnapshot().context.feed).length, ms: performance.now() - t0 };
  },
  async append(frames) {
    const actor = await actorPromise;
    const samples: number[] = [];
    const commits: number[] = [];
    const work: number[] = [];
    const frameCounts: number[] = [];
    for (const f of frames) {
      const text = (f as { content: string }).content;
      // Start at a frame boundary, as an arriving socket frame would be handled in a task between frames.
      await frame();
      await new Promise((r) => setTimeout(r, 0));
      const t0 = performance.now();
      send(actor, f);
      // React flushes the store update in a microtask; the card is then in the DOM and shows at the next paint.
      await Promise.resolve();
      const committed = hasCard(text) ? performance.now() - t0 : 0;
      if (committed) commits.push(committed);
      let paint = await afterNextPaint();
      let frames = 1;
      // Should the commit have slipped past that paint, count to the paint that shows it.
      while (!hasCard(text)) {
        paint = await afterNextPaint();
        frames++;
      }
      samples.push(paint.painted - t0);
      work.push(committed + (paint.painted - paint.frameStart));
      frameCounts.push(frames);
    }
    return { samples, commits, work, frames: frameCounts };
  },
  domNodes() {
    const el = feedEl();
    const rows = [...stage.querySelectorAll<HTMLElement>('.feed__row')];
    const scroller = stage.querySelector<HTMLElement>('.feed__scroller');
    return {
      feed: el ? el.getElementsByTagName('*').length + 1 : 0,
      rows: rows.length,
      viewportPx: scroller?.clientHeight ?? 0,
      avgRowPx: rows.length ? Math.round(rows.reduce((n, r) => n + r.offsetHeight, 0) / rows.length) : 0,
    };
  },
  async stream(perSecond, seconds) {
    const actor = await actorPromise;
    const id = `stream-${Date.now()}`;
    send(actor, {
      type: 'agent_message_start',
      id,
      agent_id: 'agent-b',
      agent_name: 'Bo',
      timestamp: new Date().toISOString(),
    } as StandardServerFrame);
    while (!stage.querySelector('.message-card--streaming')) await frame();
    const longTasks: number[] = [];
    const observer = new PerformanceObserver((list) => {
      for (const e of list.getEntries()) longTasks.push(e.duration);
    });
    observer.observe({ type: 'longtask', buffered: false });
    let worstGap = 0;
    let last = performance.now();
    let running = true;
    const watch = (t: number) => {
      worstGap = Math.max(worstGap, t - last);
      last = t;
      if (running) requestAnimationFrame(watch);
    };
    requestAnimationFrame(watch);
    const total = perSecond * seconds;
    let sent = 0;
    await new Promise<void>((resolve) => {
      const timer = setInterval(() => {
        send(actor, { type: 'agent_message_delta', id, delta: `word${sent} ` } as StandardServerFrame);
        if (++sent >= total) {
          clearInterval(timer);
          resolve();
        }
      }, 1000 / perSecond);
    });
    await frame();
    await frame();
    running = false;
    // Long-task entries are delivered asynchronously.
    await new Promise((r) => setTimeout(r, 100));
    observer.disconnect();
    const text = stage.querySelector('.message-card--streaming .message-card__text')?.textContent ?? '';
    return { deltas: sent, longTasks, worstFrameGapMs: worstGap, finalLength: text.length };
  },
};
