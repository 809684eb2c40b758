import { createActor } from 'xstate';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { replayMachine, selectReplayOpen, selectReplayPlaying } from '../../src/machines/replay.machine';

describe('replay timeline', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  const start = (turns = 10) => createActor(replayMachine, { input: { turns } }).start();

  it('opens at a turn, clamps seeks and steps to the timeline', () => {
    const a = start();
    expect(selectReplayOpen(a.getSnapshot())).toBe(false);
    a.send({ type: 'replay.open', turn: 4 });
    expect(a.getSnapshot().context.turn).toBe(4);
    a.send({ type: 'replay.step', by: 1 });
    expect(a.getSnapshot().context.turn).toBe(5);
    a.send({ type: 'replay.seek', turn: 99 });
    expect(a.getSnapshot().context.turn).toBe(10);
    a.send({ type: 'replay.step', by: -20 });
    expect(a.getSnapshot().context.turn).toBe(0);
    a.send({ type: 'replay.seek', turn: Number.NaN });
    expect(a.getSnapshot().context.turn).toBe(0);
  });

  it('plays one turn a second at 1×, sixteen at 16×, and pauses at the end', () => {
    const a = start(20);
    a.send({ type: 'replay.open' });
    a.send({ type: 'replay.play' });
    vi.advanceTimersByTime(1000);
    expect(a.getSnapshot().context.turn).toBe(1);
    a.send({ type: 'replay.speed', speed: 16 });
    vi.advanceTimersByTime(1000);
    expect(a.getSnapshot().context.turn).toBe(17);
    vi.advanceTimersByTime(1000);
    expect(a.getSnapshot().context.turn).toBe(20);
    expect(selectReplayPlaying(a.getSnapshot())).toBe(false);
    // Play at the end starts again from the first moment.
    a.send({ type: 'replay.play' });
    expect(a.getSnapshot().context.turn).toBe(0);
    a.send({ type: 'replay.pause' });
    vi.advanceTimersByTime(5000);
    expect(a.getSnapshot().context.turn).toBe(0);
    a.send({ type: 'replay.close' });
    expect(selectReplayOpen(a.getSnapshot())).toBe(false);
  });
});
