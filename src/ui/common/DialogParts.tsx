import type { ReactNode } from 'react';

// The parts every large dialog repeats (Models, Panels, API tokens, Evaluate): its header (title, a line on what it is for,
// Close) and an alert line with one action (Dismiss, Retry). Each dialog keeps its own class prefix for its look.

export function DialogHeader(props: {
  /** The dialog's class prefix: `<prefix>__header`, `<prefix>__lead`. */
  prefix: string;
  titleId: string;
  title: string;
  lead: ReactNode;
  onClose: () => void;
  /** Focus Close when the dialog opens (a dialog whose first field is not the natural start). */
  focusClose?: boolean;
}) {
  return (
    <div className={`${props.prefix}__header`}>
      <div>
        <h2 id={props.titleId}>{props.title}</h2>
        <p className={`${props.prefix}__lead`}>{props.lead}</p>
      </div>
      <button type="button" className="button button--small" onClick={props.onClose} autoFocus={props.focusClose}>
        Close
      </button>
    </div>
  );
}

export function AlertLine(props: { className: string; children: ReactNode; action: string; onAction: () => void }) {
  return (
    <div className={props.className} role="alert">
      <span>{props.children}</span>
      <button type="button" className="link-button" onClick={props.onAction}>
        {props.action}
      </button>
    </div>
  );
}
