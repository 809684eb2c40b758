// @vitest-environment jsdom
// Audio in the panels over the real audio-queue chart (scripted player): a message whose clip is sounding shows
// the queue's real progress (not an idle 0:00 / 0:00), and after Interrupt Audio the panel says speech is paused
// and offers Resume audio, after which later clips play again.
import { act, cleanup, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, expect, it } from 'vitest';
import { createActor, fromCallback, fromPromise, setup, type AnyActorRef } from 'xstate';
import { audioQueueMachine } from '../../src/machines/audioQueue.machine';
import type {
  CheckAudioInput,
  CheckAudioResult,
  ClipCommand,
  ClipEvent,
  PlayClipInput,
  PreloadCommand,
} from '../../src/model/audioClip';
import { AppActorContext } from '../../src/ui/AppContext';
import { AudioBlockedNotice } from '../../src/ui/discussion/common/AudioBlockedNotice';
import { MessageAudio } from '../../src/ui/discussion/common/MessageAudio';
import type { AppActorRef } from '../../src/machines/app.machine';

afterEach(cleanup);

function startQueue() {
  const played: string[] = [];
  const players: { url: string; tell: (e: ClipEvent) => void }[] = [];
  const queueLogic = audioQueueMachine.provide({
    actors: {
      checkAudio: fromPromise<CheckAudioResult, CheckAudioInput>(async () => ({ ok: true })),
      preloadClips: fromCallback<PreloadCommand>(() => () => {}),
      playClip: fromCallback<ClipCommand, PlayClipInput>(({ input, sendBack }) => {
        played.push(input.url);
        players.push({ url: input.url, tell: sendBack as (e: ClipEvent) => void });
        return () => {};
      }),
    },
  });
  // A stand-in app with the queue as its 'audioQueue' child, as the real app has it.
  const app = createActor(
    setup({ actors: { queue: queueLogic } }).createMachine({
      invoke: { src: 'queue', id: 'audioQueue', systemId: 'audioQueue' },
    }),
  ).start();
  const queue = app.getSnapshot().children.audioQueue as AnyActorRef;
  return { app, queue, played, players };
}

const flush = () => act(() => new Promise((r) => setTimeout(r, 0)));

it('a message whose clip plays shows the real progress from the queue', async () => {
  const { app, queue, players } = startQueue();
  render(
    <AppActorContext.Provider value={app as unknown as AppActorRef}>
      <MessageAudio url="/media/tts/a.wav" speaker="Ada" />
      <MessageAudio url="/media/tts/b.wav" speaker="Bo" />
    </AppActorContext.Provider>,
  );
  expect(screen.queryByText(/Playing/)).toBeNull();
  act(() => queue.send({ type: 'audio.enqueue', item: { audioId: 'a', url: '/media/tts/a.wav', agentId: 'a1' } }));
  await flush();
  act(() => {
    players[0].tell({ type: 'clip.loaded' });
    players[0].tell({ type: 'clip.playing' });
    players[0].tell({ type: 'clip.progress', position: 2.4, duration: 5.2 });
  });
  expect(screen.getByText('Playing')).toBeTruthy();
  expect(screen.getByText('0:02 / 0:05')).toBeTruthy();
  const bar = screen.getByRole('progressbar', { name: 'Speech of Ada' }) as HTMLProgressElement;
  expect(bar.value).toBeCloseTo(2.4);
  expect(screen.queryByRole('progressbar', { name: 'Speech of Bo' })).toBeNull();
  act(() => players[0].tell({ type: 'clip.ended' }));
  expect(screen.queryByText('Playing')).toBeNull();
});

it('after Interrupt Audio the notice says speech is paused; Resume audio lets later clips play', async () => {
  const { queue, played } = startQueue();
  render(<AudioBlockedNotice audio={queue as never} />);
  act(() => queue.send({ type: 'audio.enqueue', item: { audioId: 'a', url: '/a.wav', agentId: 'a1' } }));
  await flush();
  expect(played).toEqual(['/a.wav']);
  act(() => queue.send({ type: 'audio.interrupt' }));
  expect(screen.getByRole('status').textContent).toContain('Speech is paused');
  act(() => queue.send({ type: 'audio.enqueue', item: { audioId: 'b', url: '/b.wav', agentId: 'a2' } }));
  await flush();
  expect(played).toEqual(['/a.wav']); // held while paused
  await userEvent.setup().click(screen.getByRole('button', { name: 'Resume audio' }));
  await flush();
  expect(played).toEqual(['/a.wav', '/b.wav']);
  expect(screen.queryByText(/Speech is paused/)).toBeNull();
});
