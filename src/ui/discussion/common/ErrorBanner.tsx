// The panels' dismissible error banner (docs/product.md#discussions-screens 'Error banner with a dismiss button').
export function ErrorBanner({ message, onDismiss }: { message: string | null; onDismiss: () => void }) {
  if (!message) return null;
  return (
    <div className="discussion-error" role="alert">
      <span className="discussion-error__text">{message}</span>
      <button type="button" className="discussion-error__close" aria-label="Dismiss error" onClick={onDismiss}>
        <svg viewBox="0 0 16 16" width="14" height="14" aria-hidden="true">
          <path d="M4 4l8 8M12 4l-8 8" stroke="currentColor" strokeWidth="2" strokeLinecap="round" />
        </svg>
      </button>
    </div>
  );
}
