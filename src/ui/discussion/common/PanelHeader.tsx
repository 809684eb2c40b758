// The header both panels draw (docs/product.md#discussions-screens): the title, the run badge (Live, Starting,
// Finished, Idle), History, and the expand toggle. What the spec makes differ comes in as slots: the standard panel's
// connection badge and 'About this run' and its Advanced Settings button, the hybrid panel's duration, round and count.
import type { ReactNode } from 'react';
import { ExpandToggle } from './PanelButtons';
import { RunBadge } from './RunBadge';

export interface PanelHeaderProps {
  title: string;
  live: boolean;
  /** A run is being prepared or connected, not yet live. */
  starting: boolean;
  /** The feed holds a discussion's messages (a finished run reads 'Finished', not 'Idle'). */
  hasMessages: boolean;
  expanded: boolean;
  onToggleExpanded: () => void;
  /** Opens the History dialog (absent until the history actor is there). */
  onShowHistory?: () => void;
  /** The panel's own facts, after the run badge. */
  facts?: ReactNode;
  /** The discussion's tokens so far ('≈ 12,400 tokens'); null before anything was counted. */
  tokens?: string | null;
  /** The panel's own actions, between History and the expand toggle. */
  actions?: ReactNode;
}

export function PanelHeader(p: PanelHeaderProps) {
  return (
    <header className="panel-header">
      <div className="panel-header__title">
        <h2>{p.title}</h2>
        <div className="panel-header__facts">
          <RunBadge live={p.live} starting={p.starting} hasMessages={p.hasMessages} />
          {p.facts}
          {p.tokens && (
            <span
              className="panel-header__tokens"
              data-testid="panel-tokens"
              title={
                p.tokens.startsWith('≈')
                  ? 'Tokens this discussion spent; ≈: some turns are estimated from their text'
                  : 'Tokens this discussion spent, as its models counted them'
              }
            >
              {p.tokens}
            </span>
          )}
        </div>
      </div>
      <div className="panel-header__actions">
        {p.onShowHistory && (
          <button
            type="button"
            className="icon-button"
            onClick={p.onShowHistory}
            aria-haspopup="dialog"
            title="Past discussions"
          >
            History
          </button>
        )}
        {p.actions}
        <ExpandToggle expanded={p.expanded} onToggle={p.onToggleExpanded} />
      </div>
    </header>
  );
}
