// The footer (docs/product.md#discussions-screens): Stop, PDF and JSON export, and the counters of messages (the one
// count: src/shared/messageCount.ts), arguments and papers; a zero argument or paper count is not shown.
import { messageCountLabel } from '../../../shared/messageCount';
export interface PanelFooterProps {
  counts: { messages: number; arguments: number; papers: number };
  canStop: boolean;
  canExport: boolean;
  exporting: boolean;
  onStop: () => void;
  onExport: (format: 'pdf' | 'json') => void;
}

export function PanelFooter(p: PanelFooterProps) {
  const exportTitle = p.canExport ? undefined : 'No discussion to export.';
  return (
    <footer className="panel-footer">
      <div className="panel-footer__counts" aria-label="Counts">
        <span data-testid="count-messages">{messageCountLabel(p.counts.messages)}</span>
        {/* Only counts that say something: '0 arguments' under turns that propose and accept reads as a contradiction
            (the arguments are the Reasoning Tree's, which only some kinds of discussion build). */}
        {p.counts.arguments > 0 && (
          <span data-testid="count-arguments">
            {p.counts.arguments} argument{p.counts.arguments === 1 ? '' : 's'} in the tree
          </span>
        )}
        {p.counts.papers > 0 && (
          <span data-testid="count-papers">
            {p.counts.papers} paper{p.counts.papers === 1 ? '' : 's'}
          </span>
        )}
      </div>
      <div className="panel-footer__actions">
        <button type="button" className="button button--small button--danger" disabled={!p.canStop} onClick={p.onStop}>
          <svg viewBox="0 0 16 16" width="12" height="12" aria-hidden="true">
            <rect x="3" y="3" width="10" height="10" rx="2" fill="currentColor" />
          </svg>
          Stop
        </button>
        <button
          type="button"
          className="button button--small"
          disabled={!p.canExport || p.exporting}
          title={exportTitle}
          onClick={() => p.onExport('pdf')}
        >
          PDF
        </button>
        <button
          type="button"
          className="button button--small"
          disabled={!p.canExport || p.exporting}
          title={exportTitle}
          onClick={() => p.onExport('json')}
        >
          JSON
        </button>
      </div>
    </footer>
  );
}
