// The footer both panels draw (docs/product.md#discussions-screens): Stop and the PDF and JSON exports, with what
// the spec makes differ as slots: the standard panel's counters before the buttons (and Stop's icon), the hybrid
// panel's Join in and Interrupt Audio beside Stop, its Research and Delegations buttons, and its status line.
import type { ReactNode } from 'react';

export interface PanelFooterProps {
  /** The footer's modifier class ('panel-footer--hybrid'). */
  className?: string;
  /** Before the buttons (the standard panel's counters). */
  lead?: ReactNode;
  /** The actions row's own modifier ('panel-footer__actions--wrap'). */
  actionsClassName?: string;
  stop: { label: string; icon?: boolean; enabled: boolean; onStop: () => void };
  /** Between Stop and the exports. */
  afterStop?: ReactNode;
  exports: {
    /** The buttons' words for the PDF and JSON exports. */
    labels: { pdf: string; json: string };
    enabled: boolean;
    exporting: boolean;
    onExport: (format: 'pdf' | 'json') => void;
  };
  /** After the exports. */
  afterExports?: ReactNode;
  /** Under the buttons (the hybrid panel's status line). */
  trail?: ReactNode;
}

const EXPORT_FORMATS = ['pdf', 'json'] as const;

export function PanelFooter(p: PanelFooterProps) {
  const exportTitle = p.exports.enabled ? undefined : 'No discussion to export.';
  return (
    <footer className={p.className ? `panel-footer ${p.className}` : 'panel-footer'}>
      {p.lead}
      <div className={p.actionsClassName ? `panel-footer__actions ${p.actionsClassName}` : 'panel-footer__actions'}>
        <button
          type="button"
          className="button button--small button--danger"
          disabled={!p.stop.enabled}
          onClick={p.stop.onStop}
        >
          {p.stop.icon && (
            <svg viewBox="0 0 16 16" width="12" height="12" aria-hidden="true">
              <rect x="3" y="3" width="10" height="10" rx="2" fill="currentColor" />
            </svg>
          )}
          {p.stop.label}
        </button>
        {p.afterStop}
        {EXPORT_FORMATS.map((format) => (
          <button
            key={format}
            type="button"
            className="button button--small"
            disabled={!p.exports.enabled || p.exports.exporting}
            title={exportTitle}
            onClick={() => p.exports.onExport(format)}
          >
            {p.exports.labels[format]}
          </button>
        ))}
        {p.afterExports}
      </div>
      {p.trail}
    </footer>
  );
}
