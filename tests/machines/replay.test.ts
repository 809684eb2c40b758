import { createActor, createMachine, spawnChild } from 'xstate';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  ADDRESS_SETTLE_MS,
  replayMachine,
  selectReplayOpen,
  selectReplayPlaying,
  selectReplaySettledTurn,
  type ReplayActorRef,
} from '../../src/machines/replay.machine';

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

  it('settles the turn the address names once a moment has stayed, not at every step', () => {
    const a = start(40);
    const settled = () => selectReplaySettledTurn(a.getSnapshot());
    a.send({ type: 'replay.open', turn: 3 });
    expect(settled()).toBeNull();
    vi.advanceTimersByTime(ADDRESS_SETTLE_MS);
    expect(settled()).toBe(3);
    // Steps closer together than the wait: nothing settles until the last has stayed a whole wait, which it has
    // within two waits of the last step.
    for (let i = 0; i < 5; i++) {
      a.send({ type: 'replay.step', by: 1 });
      vi.advanceTimersByTime(ADDRESS_SETTLE_MS - 10);
      expect(settled()).toBe(3);
    }
    vi.advanceTimersByTime(2 * ADDRESS_SETTLE_MS);
    expect(settled()).toBe(8);
    // Playing at 16× (a step every 62.5 ms) moves on before a moment settles; pausing settles where it stopped.
    a.send({ type: 'replay.speed', speed: 16 });
    a.send({ type: 'replay.play' });
    vi.advanceTimersByTime(1000);
    expect(a.getSnapshot().context.turn).toBe(24);
    expect(settled()).toBe(8);
    a.send({ type: 'replay.pause' });
    vi.advanceTimersByTime(2 * ADDRESS_SETTLE_MS);
    expect(settled()).toBe(24);
    // A seek back to the settled turn and away again, within the wait, leaves it as it was.
    a.send({ type: 'replay.seek', turn: 30 });
    a.send({ type: 'replay.seek', turn: 24 });
    vi.advanceTimersByTime(ADDRESS_SETTLE_MS);
    expect(settled()).toBe(24);
  });

  // The address names the moment through the navigation actor (navigation.machine.ts): once it settles, not once
  // per step (Chromium ignores a page's history calls past a few hundred in ten seconds), and the discussion on close.
  it('reports the settled moment and the close to the navigation actor, with the discussion id', () => {
    const reported: unknown[] = [];
    const navigation = createMachine({ on: { 'nav.follow': { actions: ({ event }) => reported.push(event.route) } } });
    const root = createActor(
      createMachine({
        entry: [
          spawnChild(navigation, { systemId: 'navigation' }),
          spawnChild(replayMachine, { id: 'replay', input: { turns: 10, turn: 4, discussionId: 'd1', open: true } }),
        ],
      }),
    ).start();
    const replay = root.getSnapshot().children.replay as ReplayActorRef;
    expect(selectReplayOpen(replay.getSnapshot())).toBe(true);
    vi.advanceTimersByTime(ADDRESS_SETTLE_MS);
    expect(reported).toEqual([{ kind: 'replay', id: 'd1', turn: 4 }]);
    for (const turn of [5, 6, 7, 8]) replay.send({ type: 'replay.seek', turn });
    // Within two waits of the last move (the wait is checked when it ends).
    vi.advanceTimersByTime(2 * ADDRESS_SETTLE_MS);
    // An address (Back) naming another moment of the open replay moves it there.
    replay.send({ type: 'replay.open', turn: 2 });
    vi.advanceTimersByTime(2 * ADDRESS_SETTLE_MS);
    replay.send({ type: 'replay.close' });
    expect(reported).toEqual([
      { kind: 'replay', id: 'd1', turn: 4 },
      { kind: 'replay', id: 'd1', turn: 8 },
      { kind: 'replay', id: 'd1', turn: 2 },
      { kind: 'discussion', id: 'd1' },
    ]);
  });

  it('checks the wait when it ends instead of restarting it at every step', () => {
    const a = start(40);
    const settled = () => selectReplaySettledTurn(a.getSnapshot());
    a.send({ type: 'replay.open', turn: 3 });
    vi.advanceTimersByTime(ADDRESS_SETTLE_MS);
    a.send({ type: 'replay.step', by: 1 });
    vi.advanceTimersByTime(100);
    a.send({ type: 'replay.step', by: 1 });
    vi.advanceTimersByTime(20);
    a.send({ type: 'replay.step', by: -1 });
    // The wait that began with the first step ends on the turn it began with: that turn settles then.
    vi.advanceTimersByTime(ADDRESS_SETTLE_MS - 120);
    expect(settled()).toBe(4);
  });
});
