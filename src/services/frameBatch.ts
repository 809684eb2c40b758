// A burst of socket frames as few events: the frames that arrive before the next task runs (a resume's replay, a
// reconnect's catch-up, a fast stream) go to the socket's parent together, at most FRAME_BATCH_MAX at a time. Each
// event costs a discussion panel's chart its own per-event work (xstate's macrostep and a snapshot), which was
// most of what a frame cost it (npm run bench ingest); a batch is folded into the feed in one step. A frame that
// arrives alone is delivered when its task is over, which is before the page paints.

/** The most frames one event carries: bounds what a panel does in one step (about a millisecond here). */
export const FRAME_BATCH_MAX = 256;

/** Runs `flush` later (after the current task); returns how to cancel it. */
export type DeferFlush = (flush: () => void) => () => void;

/**
 * After the current task, not throttled in a hidden tab (a timer there waits up to a second, and speech relays
 * would wait with it): a message port's task where there is one, a timer otherwise.
 */
export const nextTask: DeferFlush = (() => {
  if (typeof MessageChannel !== 'function') {
    return (flush) => {
      const t = setTimeout(flush, 0);
      return () => clearTimeout(t);
    };
  }
  const queued: (() => void)[] = [];
  let channel: MessageChannel | null = null;
  const run = () => {
    for (const flush of queued.splice(0)) flush();
  };
  return (flush) => {
    if (!channel) {
      channel = new MessageChannel();
      channel.port1.onmessage = run;
      // Under node (tests, benches) a waiting port must not keep the process alive.
      (channel.port1 as { unref?: () => void }).unref?.();
    }
    let live = true;
    queued.push(() => live && flush());
    channel.port2.postMessage(null);
    return () => {
      live = false;
    };
  };
})();

export interface FrameBatch<F> {
  /** A frame that passed the schema: delivered with the others of its burst. */
  push(frame: F): void;
  /** Delivers what is waiting now (before a notice that must come after the frames: an error, a close). */
  flush(): void;
  /** Forgets what is waiting (the socket actor stopped). */
  cancel(): void;
}

/**
 * Frames collected until `defer` calls back, or until FRAME_BATCH_MAX wait. Without `defer`, each frame is
 * delivered as it comes (a batch of one).
 */
export function createFrameBatch<F>(deliver: (frames: F[]) => void, defer?: DeferFlush, max = FRAME_BATCH_MAX) {
  let waiting: F[] = [];
  let cancelFlush: (() => void) | null = null;
  const batch: FrameBatch<F> = {
    push(frame) {
      if (!defer) return deliver([frame]);
      waiting.push(frame);
      if (waiting.length >= max) batch.flush();
      else
        cancelFlush ??= defer(() => {
          cancelFlush = null;
          batch.flush();
        });
    },
    flush() {
      cancelFlush?.();
      cancelFlush = null;
      if (waiting.length === 0) return;
      const frames = waiting;
      waiting = [];
      deliver(frames);
    },
    cancel() {
      cancelFlush?.();
      cancelFlush = null;
      waiting = [];
    },
  };
  return batch;
}
