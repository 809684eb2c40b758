// The /join/{token} page: while the invite is accepted, a plain 'Joining…'; when it is refused, why, and the way back
// to the canvas. Once accepted the discussion's panel shows it (the join chart tells the panel and the app).
import { useSelector } from '@xstate/react';
import { useId } from 'react';
import type { JoinActorRef } from '../../machines/join.machine';
import * as sel from '../../machines/rooms.selectors';
import { ModalDialog } from '../common/ModalDialog';
import '../panels/panels.css';

export function JoinPage({ actor }: { actor: JoinActorRef }) {
  const page = useSelector(actor, sel.selectJoinPage);
  const error = useSelector(actor, sel.selectJoinError);
  const id = useId();
  if (!page) return null;
  const back = () => actor.send({ type: 'join.dismiss' });
  return (
    <ModalDialog labelledBy={`${id}-title`} onClose={page === 'failed' ? back : () => {}}>
      <div className="panels-backdrop">
        <div className="panels-dialog panels-dialog--small" aria-busy={page === 'accepting' || undefined}>
          <div className="panels-dialog__header">
            <h2 id={`${id}-title`}>{page === 'accepting' ? 'Joining the discussion…' : 'Cannot join'}</h2>
          </div>
          <div className="panels-dialog__body">
            {page === 'accepting' ? (
              <p className="panels-note" role="status">
                Accepting the invite; the discussion opens in the panel.
              </p>
            ) : (
              <>
                <p className="panels-error" role="alert">
                  {error}
                </p>
                <p className="panels-note">Ask the person who invited you for a new link.</p>
                <div className="panels-dialog__actions">
                  <button type="button" className="button button--primary" onClick={back}>
                    Back to the canvas
                  </button>
                </div>
              </>
            )}
          </div>
        </div>
      </div>
    </ModalDialog>
  );
}

export default JoinPage;
