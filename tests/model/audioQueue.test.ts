// The audio queue's bookkeeping on its own, without the chart: order, duplicates, who is told and the history.
import { describe, expect, it } from 'vitest';
import type { AnyActorRef } from 'xstate';
import {
  AUDIO_HISTORY_LIMIT,
  currentNotice,
  dropQueued,
  enqueue,
  finishCurrent,
  isNewAudio,
  takeNext,
  type AudioQueueContext,
  type AudioQueueItemInput,
} from '../../src/machines/kit/audioQueue';

const empty: AudioQueueContext = {
  items: [],
  current: null,
  history: [],
  owners: {},
  speed: 1,
  volume: 1,
  progress: null,
};
const clip = (audioId: string, priority?: number): AudioQueueItemInput => ({
  audioId,
  url: `/media/${audioId}.mp3`,
  agentId: 'a1',
  priority,
});
const owner = { id: 'panel' } as unknown as AnyActorRef;
const add = (q: AudioQueueContext, item: AudioQueueItemInput, replyTo?: AnyActorRef) => ({
  ...q,
  ...enqueue(q, item, replyTo),
});

describe('audio queue bookkeeping', () => {
  it('plays higher priority first, then in arrival order', () => {
    const q = [clip('a'), clip('b', 1), clip('c'), clip('d', 1)].reduce((acc, i) => add(acc, i), empty);
    expect(q.items.map((i) => i.audioId)).toEqual(['b', 'd', 'a', 'c']);
    expect(q.items.every((i) => i.status === 'queued')).toBe(true);
  });

  it('knows an audioId it holds queued, current or finished', () => {
    let q = add(add(empty, clip('a')), clip('b'));
    q = { ...q, ...takeNext(q) };
    expect(q.current).toMatchObject({ audioId: 'a', status: 'loading' });
    expect([isNewAudio(q, 'a'), isNewAudio(q, 'b'), isNewAudio(q, 'c')]).toEqual([false, false, true]);
    q = { ...q, ...finishCurrent(q, 'completed')!.next };
    expect(isNewAudio(q, 'a')).toBe(false);
  });

  it('tells only the owner of the current item, and forgets it once finished', () => {
    let q = add(empty, clip('a'), owner);
    expect(currentNotice(q)).toBeNull();
    q = { ...q, ...takeNext(q) };
    expect(currentNotice(q)).toEqual({ owner, notice: { type: 'audio.started', item: q.current } });
    expect(currentNotice(q, 'blocked')?.notice).toMatchObject({ type: 'audio.finished', status: 'blocked' });
    const done = finishCurrent(q, 'error', 'nope')!;
    expect(done.tell?.notice).toMatchObject({
      type: 'audio.finished',
      status: 'error',
      item: { audioId: 'a', status: 'error', error: 'nope' },
    });
    expect(done.next).toMatchObject({ current: null, owners: {} });
    expect(finishCurrent({ ...q, ...done.next }, 'stopped')).toBeNull();
  });

  it('drops queued items and their owners without a notice', () => {
    const q = add(add(empty, clip('a'), owner), clip('b'), owner);
    expect(dropQueued(q)).toEqual({ items: [], owners: {} });
  });

  it('keeps the last AUDIO_HISTORY_LIMIT finished items', () => {
    let q = empty;
    for (let n = 0; n <= AUDIO_HISTORY_LIMIT; n++) {
      q = add(q, clip(`c${n}`));
      q = { ...q, ...takeNext(q) };
      q = { ...q, ...finishCurrent(q, 'completed')!.next };
    }
    expect(q.history).toHaveLength(AUDIO_HISTORY_LIMIT);
    expect(q.history[0].audioId).toBe('c1');
  });
});
