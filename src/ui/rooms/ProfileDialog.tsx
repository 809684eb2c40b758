// The profile dialog: the display name others see in rooms and on shared pages (never the email). It draws the
// profile chart's snapshot and sends its events.
import { useSelector } from '@xstate/react';
import { useId } from 'react';
import type { ProfileActorRef } from '../../machines/profile.machine';
import * as sel from '../../machines/rooms.selectors';
import { ModalDialog } from '../common/ModalDialog';
import '../panels/panels.css';
import './rooms.css';

export function ProfileDialog({ actor, email }: { actor: ProfileActorRef; email: string | null }) {
  const draft = useSelector(actor, sel.selectProfileDraft);
  const error = useSelector(actor, sel.selectProfileError);
  const saving = useSelector(actor, sel.selectIsProfileSaving);
  const id = useId();
  const close = () => !saving && actor.send({ type: 'profile.close' });
  return (
    <ModalDialog labelledBy={`${id}-title`} onClose={close}>
      <div className="panels-backdrop" onClick={close}>
        <div className="panels-dialog panels-dialog--small" onClick={(e) => e.stopPropagation()}>
          <div className="panels-dialog__header">
            <div>
              <h2 id={`${id}-title`}>Your profile</h2>
              <p className="panels-dialog__lead">
                The name others see beside your messages when you share or join a discussion.{' '}
                {email && <>They never see your email ({email}).</>}
              </p>
            </div>
          </div>
          <form
            className="panels-dialog__body"
            onSubmit={(e) => {
              e.preventDefault();
              actor.send({ type: 'profile.save' });
            }}
          >
            <div className="field">
              <label htmlFor={`${id}-name`}>Display name</label>
              <input
                id={`${id}-name`}
                value={draft}
                autoComplete="nickname"
                data-autofocus
                aria-invalid={error ? true : undefined}
                aria-describedby={`${id}-hint`}
                onChange={(e) => actor.send({ type: 'profile.change', name: e.target.value })}
                disabled={saving}
              />
              {error ? (
                <p id={`${id}-hint`} className="field__error" role="alert">
                  {error}
                </p>
              ) : (
                <p id={`${id}-hint`} className="field__hint">
                  One line, at most 40 characters.
                </p>
              )}
            </div>
            <div className="panels-dialog__actions">
              <button type="button" className="button" onClick={close} disabled={saving}>
                Cancel
              </button>
              <button type="submit" className="button button--primary" disabled={saving}>
                {saving ? 'Saving…' : 'Save'}
              </button>
            </div>
          </form>
        </div>
      </div>
    </ModalDialog>
  );
}

export default ProfileDialog;
