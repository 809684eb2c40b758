// @vitest-environment jsdom
import { act, cleanup, render, waitFor } from '@testing-library/react';
import { flushSync } from 'react-dom';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createActor } from 'xstate';
import { replayMachine } from '../../src/machines/replay.machine';
import type { WorkspaceActorRef } from '../../src/machines/workspace.machine';
import { emptyFeed, type Feed } from '../../src/model/feed/types';
import type { PositionStep } from '../../src/model/feed/positionsState';
import { ReplayView } from '../../src/ui/discussion/history/ReplayView';

// What a Timeline step costs besides its own moment: the canvas hears of positions only when an agent's option
// changed (a confidence alone does not redraw the canvas behind the dialog), and the address is written once the
// moment settles, not at every step.

afterEach(cleanup);

const options = [
  { id: 'o1', label: 'Fare-free for residents' },
  { id: 'o2', label: 'Cheaper passes first' },
];
const step = (agentId: string, optionId: string, confidence: number): PositionStep => ({
  id: `${agentId}-${confidence}`,
  agentId,
  agentName: agentId,
  optionId,
  confidence,
  changed: null,
  score: confidence,
  leaderId: optionId,
  halved: 0,
});
/** A moment whose positions are a new object: Ada on `ada`, Bo on o2, with this confidence. */
const moment = (ada: string, confidence: number): Feed => ({
  ...emptyFeed,
  positions: {
    ...emptyFeed.positions,
    options,
    byAgent: { Ada: step('Ada', ada, confidence), Bo: step('Bo', 'o2', confidence) },
  },
});

function setup(moments: Feed[]) {
  const send = vi.fn();
  const workspace = { send } as unknown as WorkspaceActorRef;
  const replay = createActor(replayMachine, { input: { turns: moments.length - 1 } }).start();
  replay.send({ type: 'replay.open', turn: 0 });
  const { container } = render(<ReplayView replay={replay} moments={moments} workspace={workspace} />);
  const shown = () =>
    send.mock.calls.filter(([e]) => e.type === 'discussion.positionsShow' && e.positions !== null).map(([e]) => e);
  return { replay, shown, container };
}

describe('a replay step', () => {
  it('tells the canvas only when an option changed, not when a confidence moved', () => {
    // Turns 0–3: Ada on o1 at rising confidence; turn 4: Ada moves to o2.
    const { replay, shown } = setup([
      moment('o1', 0.5),
      moment('o1', 0.6),
      moment('o1', 0.7),
      moment('o1', 0.8),
      moment('o2', 0.8),
    ]);
    expect(shown()).toHaveLength(1);
    for (const turn of [1, 2, 3]) act(() => replay.send({ type: 'replay.seek', turn }));
    expect(shown()).toHaveLength(1);
    act(() => replay.send({ type: 'replay.seek', turn: 4 }));
    expect(shown()).toHaveLength(2);
    expect(shown()[1].positions.Ada).toMatchObject({ label: 'Cheaper passes first' });
  });

  it("paints the slider and the state line in the key's own render, the feed in a deferred one after it", async () => {
    const { replay, container } = setup([0, 1, 2, 3].map((i) => moment('o1', 0.5 + i / 10)));
    const feed = () => (container.querySelector('.replay__feed') as HTMLElement).dataset.turn;
    const slider = container.querySelector('input[type=range]') as HTMLInputElement;
    expect(feed()).toBe('0');
    // As a key press does: the store's update renders synchronously; React's deferred render waits for its scheduler.
    const quiet = vi.spyOn(console, 'error').mockImplementation(() => {}); // React: an update outside act()
    try {
      flushSync(() => replay.send({ type: 'replay.seek', turn: 3 }));
      expect(slider.value).toBe('3');
      expect(container.querySelector('.replay__state')?.textContent).toContain('Turn 3 of 3');
      expect(feed()).toBe('0');
      await waitFor(() => expect(feed()).toBe('3'));
    } finally {
      quiet.mockRestore();
    }
  });
});
