// The toast stack, top right. Each toast leaves on its own (the toasts actor times it) or when dismissed.
import { useSelector } from '@xstate/react';
import type { ToastsActorRef } from '../../machines/toasts.machine';

export function Toasts({ toasts }: { toasts: ToastsActorRef }) {
  const list = useSelector(toasts, (s) => s.context.toasts);
  return (
    <div className="toasts" aria-live="polite" aria-relevant="additions">
      {list.map((t) => (
        <div key={t.id} className={`toast toast--${t.kind}`} role={t.kind === 'error' ? 'alert' : 'status'}>
          <span className="toast__text">{t.text}</span>
          <button
            type="button"
            className="toast__close"
            aria-label="Dismiss notification"
            onClick={() => toasts.send({ type: 'toast.dismiss', id: t.id })}
          >
            ×
          </button>
        </div>
      ))}
    </div>
  );
}
