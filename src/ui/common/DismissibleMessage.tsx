// A message inside the editor that stays until the user dismisses it: errors are announced as alerts,
// notices as status.
import type { ReactNode } from 'react';

export function DismissibleMessage({
  tone,
  onDismiss,
  dismissLabel,
  children,
}: {
  tone: 'error' | 'notice';
  onDismiss: () => void;
  /** The button's accessible name when 'Dismiss' alone would not say what goes away. */
  dismissLabel?: string;
  children: ReactNode;
}) {
  return (
    <p className={`agora-inline-${tone}`} role={tone === 'error' ? 'alert' : 'status'}>
      {children}{' '}
      <button type="button" className="link-button" onClick={onDismiss} aria-label={dismissLabel}>
        Dismiss
      </button>
    </p>
  );
}
