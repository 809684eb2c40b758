// After a reload (or a sign-in elsewhere) a discussion of this user may still run on the server: the panel
// offers it at once, so the reader does not have to find it under History. Re-attach continues it in the panel
// that ran it; Dismiss leaves it to History.
import { useSelector } from '@xstate/react';
import type { HistoryActorRef } from '../../../machines/history.machine';
import { selectOffer } from '../../../machines/history.selectors';
import { selectIsAttachingOffer, selectRunningOffer } from '../../../machines/runningOffer.selectors';
import { HISTORY_MESSAGES } from '../../../schemas/messages';

export function RunningOffer({ history }: { history: HistoryActorRef | undefined }) {
  const offerActor = useSelector(history, (s) => (s ? selectOffer(s) : undefined));
  const offer = useSelector(offerActor, selectRunningOffer);
  const attaching = useSelector(offerActor, selectIsAttachingOffer);
  if (!offer || !history) return null;
  return (
    <div className="running-offer" role="status">
      <p className="running-offer__text">
        <strong>{HISTORY_MESSAGES.offerRunning}</strong>
        <span className="running-offer__topic">{offer.topic}</span>
      </p>
      <div className="running-offer__actions">
        <button
          type="button"
          className="button button--small button--primary"
          disabled={attaching}
          onClick={() => history.send({ type: 'history.offer.accept' })}
        >
          {attaching ? 'Re-attaching…' : 'Re-attach'}
        </button>
        <button
          type="button"
          className="button button--small"
          disabled={attaching}
          onClick={() => history.send({ type: 'history.offer.dismiss' })}
        >
          Dismiss
        </button>
      </div>
    </div>
  );
}
