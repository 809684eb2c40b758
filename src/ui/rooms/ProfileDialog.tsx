// The profile dialog: the display name others see in rooms and on shared pages (never the email). It draws the
// profile chart's snapshot and sends its events.
import { useSelector } from '@xstate/react';
import { useId } from 'react';
import type { ProfileActorRef } from '../../machines/profile.machine';
import * as sel from '../../machines/rooms.selectors';
import { FormActions, NameField } from '../common/DialogParts';
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
            <NameField
              id={id}
              label="Display name"
              value={draft}
              error={error}
              hint="One line, at most 40 characters."
              disabled={saving}
              autoComplete="nickname"
              onChange={(name) => actor.send({ type: 'profile.change', name })}
            />
            <FormActions busy={saving} submit="Save" onCancel={close} />
          </form>
        </div>
      </div>
    </ModalDialog>
  );
}

export default ProfileDialog;
