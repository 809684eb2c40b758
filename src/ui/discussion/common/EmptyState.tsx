// What a tab shows before it has anything: a line that says what will appear and how to get it.
import type { ReactNode } from 'react';

export function EmptyState({ title, children }: { title: string; children?: ReactNode }) {
  return (
    <div className="empty-state">
      <svg viewBox="0 0 48 48" width="40" height="40" aria-hidden="true" className="empty-state__icon">
        <rect x="6" y="10" width="28" height="20" rx="5" fill="none" stroke="currentColor" strokeWidth="2.5" />
        <path d="M14 30l-4 7 9-7" fill="none" stroke="currentColor" strokeWidth="2.5" strokeLinejoin="round" />
        <rect x="18" y="20" width="24" height="16" rx="5" fill="currentColor" opacity="0.18" />
      </svg>
      <p className="empty-state__title">{title}</p>
      {children && <div className="empty-state__body muted">{children}</div>}
    </div>
  );
}
