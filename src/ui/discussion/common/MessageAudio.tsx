// A message's clip. The audio queue plays it in its own element, so while it sounds the message shows the
// queue's real progress ('Playing 0:02 / 0:05' and a bar) instead of an idle player reading 0:00 / 0:00; the
// player is there to hear it again afterwards.
import { useContext } from 'react';
import { useSelector } from '@xstate/react';
import { selectAudioQueue } from '../../../machines/app.selectors';
import { selectClipProgress } from '../../../machines/audioQueue.selectors';
import type { AudioQueueActorRef } from '../../../machines/audioQueue.machine';
import { AppActorContext } from '../../AppContext';

const clock = (seconds: number) => {
  const s = Math.max(0, Math.floor(seconds));
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, '0')}`;
};

/** Same clip whether the URL is absolute or relative (the queue may hold either). */
const sameClip = (a: string, b: string) => a === b || a.endsWith(b) || b.endsWith(a);

/** The queue's real progress on this clip while it plays (nothing otherwise), shown on the turn itself. */
export function ClipProgress({ url, speaker }: { url: string; speaker: string | null | undefined }) {
  const app = useContext(AppActorContext);
  const queue = useSelector(app ?? undefined, (s) =>
    s ? (selectAudioQueue(s) as AudioQueueActorRef | undefined) : undefined,
  );
  const progress = useSelector(
    queue,
    (s) => {
      const p = s ? selectClipProgress(s) : null;
      return p && sameClip(p.url, url) ? p : null;
    },
    (a, b) =>
      a === b ||
      (!!a &&
        !!b &&
        Math.floor(a.position * 4) === Math.floor(b.position * 4) &&
        a.duration === b.duration &&
        a.playing === b.playing),
  );
  if (!progress) return null;
  return (
    <div className="message-audio__live">
      <span className="message-audio__state">{progress.playing ? 'Playing' : 'Paused'}</span>
      <progress
        max={progress.duration || 1}
        value={progress.duration ? progress.position : 0}
        aria-label={`Speech of ${speaker ?? 'the message'}`}
      />
      <span className="message-audio__time">
        {clock(progress.position)} / {progress.duration ? clock(progress.duration) : '…'}
      </span>
    </div>
  );
}

export function MessageAudio({ url, speaker }: { url: string; speaker: string | null | undefined }) {
  return (
    <div className="message-audio">
      <ClipProgress url={url} speaker={speaker} />
      {/* Metadata only: the idle player knows the clip's length without fetching the whole clip. */}
      <audio
        className="message-card__audio"
        controls
        preload="metadata"
        src={url}
        aria-label={`Audio of ${speaker ?? 'the message'}`}
      />
    </div>
  );
}
