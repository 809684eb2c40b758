// @vitest-environment jsdom
// The one-click 'Enable audio' when the browser blocked autoplay: shown while the queue is blocked, and the click
// is the user gesture the queue waits for (audio.unblock). The queue's own blocked → unblock chart is tested in
// tests/machines/audioQueue.test.ts; here a stand-in with the same tag and event.
import { act, cleanup, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, expect, it } from 'vitest';
import { createActor, createMachine } from 'xstate';
import type { AudioQueueActorRef } from '../../src/machines/audioQueue.machine';
import { AudioBlockedNotice } from '../../src/ui/discussion/common/AudioBlockedNotice';

afterEach(cleanup);

it('offers Enable audio while the queue is blocked, and the click unblocks it', async () => {
  const received: string[] = [];
  const queue = createActor(
    createMachine({
      initial: 'playing',
      states: {
        playing: { on: { block: 'blocked' } },
        blocked: {
          tags: 'blocked',
          on: { 'audio.unblock': { target: 'playing', actions: ({ event }) => void received.push(event.type) } },
        },
      },
    }),
  ).start();
  render(<AudioBlockedNotice audio={queue as unknown as AudioQueueActorRef} />);
  expect(screen.queryByRole('button', { name: 'Enable audio' })).toBeNull();
  act(() => queue.send({ type: 'block' }));
  await userEvent.setup().click(screen.getByRole('button', { name: 'Enable audio' }));
  expect(received).toEqual(['audio.unblock']);
  expect(screen.queryByRole('button', { name: 'Enable audio' })).toBeNull();
});
