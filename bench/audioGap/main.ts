// The audio-gap bench page: the real audio queue (createAudioQueueLogic: HEAD check, preload cache, player
// over real HTMLAudioElements) plays the clips it is given, and every element's first 'playing' and its
// 'ended' are stamped with performance.now(), before the queue hears them. The driver
// (bench/audioGap.bench.ts) reads the gaps: end of clip n → 'playing' of clip n+1.
import { createActor, createMachine } from 'xstate';
import type { AudioQueueNotice } from '../../src/machines/audioQueue.machine';
import { createAudioQueueLogic } from '../../src/services/audioPlayer';

export interface ClipMarks {
  url: string;
  /** First 'playing' of the element that played the clip (ms, performance.now()). */
  playing: number | null;
  ended: number | null;
  status: string | null;
}

export interface RunResult {
  clips: ClipMarks[];
  /** Elements created, preloads included. */
  elements: number;
}

export interface AudioBench {
  run(urls: string[], opts: { preload: boolean }): Promise<RunResult>;
}

declare global {
  interface Window {
    audioBench: AudioBench;
  }
}

window.audioBench = {
  run(urls, opts) {
    const marks = new Map<string, ClipMarks>(
      urls.map((url) => [url, { url, playing: null, ended: null, status: null }]),
    );
    const absolute = (u: string) => new URL(u, location.href).href;
    const byAbsolute = new Map(urls.map((u) => [absolute(u), u]));
    let elements = 0;
    const createAudio = (url: string) => {
      elements++;
      const el = new Audio(url);
      const m = marks.get(byAbsolute.get(absolute(url)) ?? url);
      el.addEventListener('playing', () => {
        if (m && m.playing === null) m.playing = performance.now();
      });
      el.addEventListener('ended', () => {
        if (m && m.ended === null) m.ended = performance.now();
      });
      return el;
    };
    // cacheSize 0: every warmed element is dropped at once, so each clip loads when its turn comes.
    const queue = createActor(createAudioQueueLogic({ createAudio, cacheSize: opts.preload ? undefined : 0 })).start();
    return new Promise<RunResult>((resolve) => {
      let finished = 0;
      const owner = createActor(
        createMachine({
          on: {
            '*': {
              actions: ({ event }) => {
                const notice = event as AudioQueueNotice;
                if (notice.type !== 'audio.finished' || notice.status === 'blocked') return;
                const m = marks.get(notice.item.url);
                if (m) m.status = notice.status;
                if (++finished === urls.length) {
                  queue.stop();
                  resolve({ clips: urls.map((u) => marks.get(u)!), elements });
                }
              },
            },
          },
        }),
      ).start();
      urls.forEach((url, i) =>
        queue.send({
          type: 'audio.enqueue',
          item: { audioId: `clip-${i}`, url, agentId: `agent-${i % 3}` },
          replyTo: owner,
        }),
      );
    });
  },
};
