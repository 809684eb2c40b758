// The buttons both panels show alike: Expand / Collapse in the header, 'New discussion' after a run.
export function ExpandToggle({ expanded, onToggle }: { expanded: boolean; onToggle: () => void }) {
  return (
    <button
      type="button"
      className="icon-button icon-button--square"
      aria-pressed={expanded}
      onClick={onToggle}
      aria-label={expanded ? 'Collapse panel' : 'Expand panel'}
      title={expanded ? 'Collapse' : 'Expand'}
    >
      <svg viewBox="0 0 20 20" width="16" height="16" aria-hidden="true">
        <path
          d={expanded ? 'M8 4l6 6-6 6' : 'M12 4l-6 6 6 6'}
          stroke="currentColor"
          strokeWidth="2"
          fill="none"
          strokeLinecap="round"
          strokeLinejoin="round"
        />
      </svg>
    </button>
  );
}

/** After a run, both panels keep its feed until the person asks for a new discussion. */
export function NewDiscussionButton({ onClick }: { onClick: () => void }) {
  return (
    <button type="button" className="button button--small button--primary" onClick={onClick}>
      New discussion
    </button>
  );
}
