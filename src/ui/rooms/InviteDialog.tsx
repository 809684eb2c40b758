// The Invite dialog: the owner of a running discussion chooses a role and makes a link for another signed-in user
// of this server; the link is shown once, with Copy. It draws the invite chart's snapshot and sends its events.
import { useSelector } from '@xstate/react';
import { useId } from 'react';
import type { InviteActorRef } from '../../machines/invite.machine';
import * as sel from '../../machines/rooms.selectors';
import { ROOM_LIMITS, ROOM_ROLES, type RoomRole } from '../../schemas/rooms';
import { AlertLine } from '../common/DialogParts';
import { ModalDialog } from '../common/ModalDialog';
import '../panels/panels.css';
import './rooms.css';

const ROLE_TEXT: Record<RoomRole, { label: string; what: string }> = {
  participant: { label: 'Participant', what: 'sends messages, @mentions agents, votes when given a seat' },
  watcher: { label: 'Watcher', what: 'sees the discussion live, without a message box' },
};

const COPY_WORDS = { idle: 'Copy', copying: 'Copying…', copied: 'Copied', failed: 'Copy again' } as const;

export function InviteDialog({ actor }: { actor: InviteActorRef }) {
  const role = useSelector(actor, sel.selectInviteRole);
  const created = useSelector(actor, sel.selectInviteCreated);
  const error = useSelector(actor, sel.selectInviteError);
  const busy = useSelector(actor, sel.selectIsInviteBusy);
  const copy = useSelector(actor, sel.selectInviteCopy);
  const id = useId();
  const close = () => actor.send({ type: 'invite.close' });
  return (
    <ModalDialog labelledBy={`${id}-title`} onClose={close}>
      <div className="panels-backdrop" onClick={close}>
        <div className="panels-dialog panels-dialog--small" onClick={(e) => e.stopPropagation()}>
          <div className="panels-dialog__header">
            <div>
              <h2 id={`${id}-title`}>Invite to this discussion</h2>
              <p className="panels-dialog__lead">
                A link for someone with an account on this server. It works for {ROOM_LIMITS.inviteDays} days; they join
                while the discussion runs.
              </p>
            </div>
          </div>
          <div className="panels-dialog__body">
            {error && (
              <AlertLine
                className="panels-alert"
                action="Dismiss"
                onAction={() => actor.send({ type: 'invite.again' })}
              >
                The invite could not be made: {error}
              </AlertLine>
            )}
            {created ? (
              <>
                <p className="panels-note">
                  A link for a <strong>{ROLE_TEXT[created.role].label.toLowerCase()}</strong>. It is shown once: copy it
                  now.
                </p>
                <div className="room-link">
                  <label htmlFor={`${id}-link`} className="visually-hidden">
                    Invite link
                  </label>
                  <input id={`${id}-link`} readOnly value={created.url} onFocus={(e) => e.currentTarget.select()} />
                  <button
                    type="button"
                    className="button button--small button--primary"
                    disabled={copy === 'copying'}
                    onClick={() => actor.send({ type: 'invite.copy' })}
                  >
                    {COPY_WORDS[copy]}
                  </button>
                </div>
                <p className="panels-note" role="status">
                  {copy === 'copied'
                    ? 'The link is on the clipboard.'
                    : copy === 'failed'
                      ? 'Copying failed: select the link and copy it yourself.'
                      : ''}
                </p>
                <div className="panels-dialog__actions">
                  <button type="button" className="button" onClick={() => actor.send({ type: 'invite.again' })}>
                    Another link
                  </button>
                  <button type="button" className="button button--primary" onClick={close}>
                    Done
                  </button>
                </div>
              </>
            ) : (
              <form
                onSubmit={(e) => {
                  e.preventDefault();
                  actor.send({ type: 'invite.create' });
                }}
              >
                <fieldset className="room-roles" disabled={busy}>
                  <legend>They join as</legend>
                  {ROOM_ROLES.map((r) => (
                    <label key={r}>
                      <input
                        type="radio"
                        name={`${id}-role`}
                        value={r}
                        checked={role === r}
                        onChange={() => actor.send({ type: 'invite.role', role: r })}
                      />
                      <span>
                        {ROLE_TEXT[r].label}
                        <small>{ROLE_TEXT[r].what}</small>
                      </span>
                    </label>
                  ))}
                </fieldset>
                <div className="panels-dialog__actions">
                  <button type="button" className="button" onClick={close}>
                    Cancel
                  </button>
                  <button type="submit" className="button button--primary" disabled={busy}>
                    {busy ? 'Creating…' : 'Create link'}
                  </button>
                </div>
              </form>
            )}
          </div>
        </div>
      </div>
    </ModalDialog>
  );
}

export default InviteDialog;
