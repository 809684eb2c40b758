import { fromCallback } from 'xstate';
import type { ThinkEvent, ThinkInput, ThinkOutput } from './context';
import type { EngineFrame } from './frames';
import { ReplyText } from './replyText';

// Why this file: the machine's `think` actor has to report two things, the reply as it is written and the
// finished answer, and the machine itself must stay pure (no timers). This wraps any "ask the model" function —
// the real providers in runtime.ts, scripted ones in tests — into that actor: raw pieces go through ReplyText
// (only the readable text is shown), are coalesced to at most one `think.delta` per `coalesceMs`, and the end is
// `think.done` (the parsed answer) or `think.failed`. Leaving the thinking state (stop, time-out) aborts the call.

export interface ThinkIo {
  signal: AbortSignal;
  /** A raw piece of the model's output, as the provider streams it. */
  write(raw: string): void;
  /** A frame of the turn's tool calls, sent at once (docs/tools.md). */
  emit(frame: EngineFrame): void;
}

export type Ask = (input: ThinkInput, io: ThinkIo) => Promise<ThinkOutput>;

const errorText = (e: unknown) => (e instanceof Error ? e.message : typeof e === 'string' ? e : 'unknown error');

export function streamingThink(ask: Ask, coalesceMs: () => number) {
  return fromCallback<ThinkEvent, ThinkInput>(({ input, sendBack }) => {
    const controller = new AbortController();
    const lane = input.lane === undefined ? {} : { lane: input.lane };
    const reader = new ReplyText();
    const every = Math.max(0, coalesceMs());
    let over = false;
    let pending = '';
    let firstTokenAt = 0;
    let lastSent = Number.NEGATIVE_INFINITY;
    let timer: NodeJS.Timeout | null = null;

    /** Sends what is pending; trailing whitespace waits for the next word (the final text is trimmed). */
    const flush = (final: boolean) => {
      if (timer) clearTimeout(timer);
      timer = null;
      const text = final ? pending.trimEnd() : pending.replace(/\s+$/, '');
      if (!text) return;
      pending = pending.slice(text.length);
      if (final) pending = '';
      lastSent = performance.now();
      sendBack({ type: 'think.delta', text, tokenAt: firstTokenAt, ...lane });
    };

    const write = (raw: string) => {
      if (over) return;
      let visible = reader.push(raw);
      if (lastSent < 0 && !pending) visible = visible.replace(/^\s+/, ''); // the final text is trimmed too
      if (!visible) return;
      if (!pending.trim()) firstTokenAt = performance.now();
      pending += visible;
      const wait = lastSent + every - performance.now();
      if (wait <= 0) flush(false);
      else timer ??= setTimeout(() => flush(false), wait);
    };

    const emit = (frame: EngineFrame) => {
      if (!over) sendBack({ type: 'think.frame', frame, ...lane });
    };

    ask(input, { signal: controller.signal, write, emit }).then(
      (output) => {
        if (over) return;
        flush(true);
        over = true;
        sendBack({ type: 'think.done', output, ...lane });
      },
      (err) => {
        if (over) return;
        flush(true);
        over = true;
        sendBack({ type: 'think.failed', error: errorText(err), ...lane });
      },
    );
    return () => {
      over = true;
      if (timer) clearTimeout(timer);
      controller.abort();
    };
  });
}
