// When the browser refuses to start a clip without a user gesture, the queue waits on that clip ('blocked'); one
// click here is the gesture that lets it play, and the queue carries on from there.
import { useSelector } from '@xstate/react';
import type { AudioQueueActorRef } from '../../../machines/audioQueue.machine';
import { selectIsBlocked, selectIsInterrupted } from '../../../machines/audioQueue.selectors';

export function AudioBlockedNotice({ audio }: { audio: AudioQueueActorRef | undefined }) {
  const blocked = useSelector(audio, (s) => (s ? selectIsBlocked(s) : false));
  const interrupted = useSelector(audio, (s) => (s ? selectIsInterrupted(s) : false));
  if (!audio) return null;
  // After 'Interrupt Audio' later clips wait; saying so (and offering to go on) beats a silence nobody explains.
  if (interrupted) {
    return (
      <div className="audio-blocked" role="status">
        <span>Speech is paused: later messages wait until you resume it.</span>
        <button
          type="button"
          className="button button--small button--primary"
          onClick={() => audio.send({ type: 'audio.enable' })}
        >
          Resume audio
        </button>
      </div>
    );
  }
  if (!blocked) return null;
  return (
    <div className="audio-blocked" role="status">
      <span>The browser paused the agents' speech until you allow it.</span>
      <button
        type="button"
        className="button button--small button--primary"
        onClick={() => audio.send({ type: 'audio.unblock' })}
      >
        Enable audio
      </button>
    </div>
  );
}
