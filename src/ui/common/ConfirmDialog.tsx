// A small modal question (delete agent, delete audio). The machine holds the 'confirming' state; this only
// draws it and sends the answer. Escape cancels; focus starts on Cancel so Enter never deletes by accident.
import { ModalDialog } from './ModalDialog';

interface Props {
  message: string;
  confirmLabel: string;
  busy?: boolean;
  /** The question is still being prepared: Cancel works, the confirmation does not yet. */
  confirmDisabled?: boolean;
  /** A deletion is red; a question that goes ahead ('Start anyway') is the primary colour. */
  tone?: 'danger' | 'primary';
  onConfirm: () => void;
  onCancel: () => void;
}

export function ConfirmDialog({
  message,
  confirmLabel,
  busy = false,
  confirmDisabled = false,
  tone = 'danger',
  onConfirm,
  onCancel,
}: Props) {
  return (
    <ModalDialog role="alertdialog" label="Confirm" onClose={() => !busy && onCancel()}>
      <div className="agora-confirm-backdrop" onClick={onCancel}>
        <div className="agora-confirm" onClick={(e) => e.stopPropagation()}>
          <p className="agora-confirm-message">{message}</p>
          <div className="agora-confirm-actions">
            <button type="button" className="button" data-autofocus onClick={onCancel} disabled={busy}>
              Cancel
            </button>
            <button
              type="button"
              className={tone === 'danger' ? 'button button--danger-solid' : 'button button--primary'}
              onClick={onConfirm}
              disabled={busy || confirmDisabled}
            >
              {confirmLabel}
            </button>
          </div>
        </div>
      </div>
    </ModalDialog>
  );
}
