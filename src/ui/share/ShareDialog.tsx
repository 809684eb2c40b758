// The Share dialog: read-only links to one discussion. Make a link (its address shown once, with Copy), the links
// still valid with their dates, Revoke on each; busy and error lines. It reads the shareDialog actor and only sends.
import { useSelector } from '@xstate/react';
import type { ShareDialogActorRef } from '../../machines/shareDialog.machine';
import * as sel from '../../machines/shareDialog.selectors';
import { ROOM_LIMITS } from '../../schemas/rooms';
import { AlertLine, DialogHeader } from '../common/DialogParts';
import { ModalDialog } from '../common/ModalDialog';
import './share.css';

const day = (iso: string | null | undefined) => (iso ? new Date(iso).toLocaleDateString() : '—');

export function ShareDialog({ share, topic }: { share: ShareDialogActorRef; topic: string }) {
  const state = useSelector(share, sel.selectShareState);
  const busy = useSelector(share, sel.selectShareBusy);
  const creating = useSelector(share, sel.selectIsCreating);
  const shares = useSelector(share, sel.selectShares);
  const created = useSelector(share, sel.selectCreated);
  const revokingId = useSelector(share, sel.selectRevokingId);
  const copied = useSelector(share, sel.selectCopied);
  const error = useSelector(share, sel.selectShareError);
  if (state === 'hidden') return null;
  const hide = () => share.send({ type: 'share.hide' });
  const address = created ? `${window.location.origin}${created.url}` : '';
  return (
    <ModalDialog labelledBy="share-title" onClose={hide}>
      <div className="agora-confirm-backdrop" onClick={hide}>
        <div className="share-dialog" onClick={(e) => e.stopPropagation()}>
          <DialogHeader
            prefix="share-dialog"
            titleId="share-title"
            title="Share read-only"
            lead={
              <>
                Anyone with a link can read <q>{topic}</q>, replay it and export it, without an account. They see agent
                names, roles and turns; never your email, the agents' prompts or models.
              </>
            }
            onClose={hide}
          />
          {error && state !== 'failed' && (
            <AlertLine
              className="share-dialog__error"
              action="Dismiss"
              onAction={() => share.send({ type: 'share.error.dismiss' })}
            >
              {error}
            </AlertLine>
          )}
          <div className="share-dialog__body">
            {state === 'loading' && (
              <p role="status" className="muted">
                Loading the links…
              </p>
            )}
            {state === 'failed' && (
              <AlertLine
                className="share-dialog__error"
                action="Retry"
                onAction={() => share.send({ type: 'share.retry' })}
              >
                Could not load the links: {error}
              </AlertLine>
            )}
            {state === 'ready' && (
              <>
                <button
                  type="button"
                  className="button button--primary"
                  disabled={busy || shares.length >= ROOM_LIMITS.maxShares}
                  onClick={() => share.send({ type: 'share.create' })}
                >
                  {creating ? 'Making a link…' : 'Create a link'}
                </button>
                {created && (
                  <div className="share-dialog__new">
                    <label htmlFor="share-new-url">
                      New link (shown only now; it works until {day(created.expires_at)})
                    </label>
                    <div className="share-dialog__url">
                      <input id="share-new-url" readOnly value={address} onFocus={(e) => e.currentTarget.select()} />
                      <button
                        type="button"
                        className="button button--small"
                        onClick={() => share.send({ type: 'share.copy', text: address })}
                      >
                        {copied ? 'Copied' : 'Copy'}
                      </button>
                    </div>
                  </div>
                )}
                <h3 className="share-dialog__subhead">Valid links</h3>
                {shares.length === 0 ? (
                  <p className="muted">No links yet: nobody can open this discussion but you.</p>
                ) : (
                  <ul className="share-dialog__list" aria-label="Valid links">
                    {shares.map((s) => (
                      <li key={s.id}>
                        <span>
                          Made {day(s.created_at)} · works until {day(s.expires_at)}
                          {s.last_opened_at ? ` · last opened ${day(s.last_opened_at)}` : ' · not opened yet'}
                        </span>
                        <button
                          type="button"
                          className="button button--small button--danger"
                          disabled={busy}
                          aria-label={`Revoke the link made ${day(s.created_at)}`}
                          onClick={() => share.send({ type: 'share.revoke', id: s.id })}
                        >
                          {revokingId === s.id ? 'Revoking…' : 'Revoke'}
                        </button>
                      </li>
                    ))}
                  </ul>
                )}
              </>
            )}
          </div>
        </div>
      </div>
    </ModalDialog>
  );
}
