// A small modal question (delete agent, delete audio). The machine holds the 'confirming' state; this only
// draws it and sends the answer. Escape cancels; focus starts on Cancel so Enter never deletes by accident.
import { useEffect, useRef } from 'react';
import { useFocusReturn } from './focus';

interface Props {
  message: string;
  confirmLabel: string;
  busy?: boolean;
  /** The question is still being prepared: Cancel works, the confirmation does not yet. */
  confirmDisabled?: boolean;
  onConfirm: () => void;
  onCancel: () => void;
}

export function ConfirmDialog({ message, confirmLabel, busy = false, confirmDisabled = false, onConfirm, onCancel }: Props) {
  const cancelRef = useRef<HTMLButtonElement>(null);
  // Focus management only (no flow): the dialog is keyboard-usable the moment it appears.
  useEffect(() => cancelRef.current?.focus(), []);
  // …and on close the focus goes back to what asked (or home).
  useFocusReturn(true);
  return (
    <div className="agora-confirm-backdrop" onClick={onCancel}>
      <div
        className="agora-confirm"
        role="alertdialog"
        aria-modal="true"
        aria-label="Confirm"
        onClick={(e) => e.stopPropagation()}
        onKeyDown={(e) => {
          if (e.key === 'Escape') {
            e.stopPropagation();
            onCancel();
          }
        }}
      >
        <p className="agora-confirm-message">{message}</p>
        <div className="agora-confirm-actions">
          <button type="button" className="button" ref={cancelRef} onClick={onCancel} disabled={busy}>
            Cancel
          </button>
          <button type="button" className="button button--danger-solid" onClick={onConfirm} disabled={busy || confirmDisabled}>
            {confirmLabel}
          </button>
        </div>
      </div>
    </div>
  );
}
