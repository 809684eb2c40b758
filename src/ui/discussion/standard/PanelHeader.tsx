// The standard panel's header (part 2 §2): title, session id suffix, endpoint, connection badge, the Advanced
// Settings and expand toggles, and the Live/Idle badge.
import { Badge, type BadgeTone } from '../../common/Badge';
import type { ConnectionStatus } from '../../../machines/standardDiscussion.selectors';

const STATUS_TONE: Record<ConnectionStatus, BadgeTone> = { disconnected: 'neutral', connecting: 'warning', connected: 'success', error: 'danger' };

export interface PanelHeaderProps {
  sessionSuffix: string | null;
  endpointName: string | null;
  status: ConnectionStatus;
  live: boolean;
  settingsOpen: boolean;
  expanded: boolean;
  onToggleSettings: () => void;
  onToggleExpanded: () => void;
  /** Opens the History dialog (absent until the history actor is there). */
  onShowHistory?: () => void;
}

export function PanelHeader(p: PanelHeaderProps) {
  return (
    <header className="panel-header">
      <div className="panel-header__title">
        <h2>Enhanced Multi-Agent Discussion</h2>
        <div className="panel-header__facts">
          <Badge tone={p.live ? 'success' : 'neutral'}>{p.live ? 'Live' : 'Idle'}</Badge>
          <Badge tone={STATUS_TONE[p.status]} title="Connection status">
            {p.status}
          </Badge>
          {p.endpointName && <span className="panel-header__endpoint">{p.endpointName}</span>}
          {p.sessionSuffix && (
            <span className="panel-header__session" title="Session id">
              …{p.sessionSuffix}
            </span>
          )}
        </div>
      </div>
      <div className="panel-header__actions">
        {p.onShowHistory && (
          <button type="button" className="icon-button" onClick={p.onShowHistory} aria-haspopup="dialog" title="Past discussions">
            History
          </button>
        )}
        <button type="button" className="icon-button" aria-pressed={p.settingsOpen} aria-expanded={p.settingsOpen} aria-controls="advanced-settings" onClick={p.onToggleSettings} title="Advanced Settings">
          <svg viewBox="0 0 20 20" width="16" height="16" aria-hidden="true">
            <path d="M3 5h8M15 5h2M3 10h2M9 10h8M3 15h10M17 15h0" stroke="currentColor" strokeWidth="1.8" strokeLinecap="round" />
            <circle cx="13" cy="5" r="2" fill="none" stroke="currentColor" strokeWidth="1.8" />
            <circle cx="7" cy="10" r="2" fill="none" stroke="currentColor" strokeWidth="1.8" />
            <circle cx="15" cy="15" r="2" fill="none" stroke="currentColor" strokeWidth="1.8" />
          </svg>
          <span>Advanced Settings</span>
        </button>
        <button type="button" className="icon-button icon-button--square" aria-pressed={p.expanded} onClick={p.onToggleExpanded} aria-label={p.expanded ? 'Collapse panel' : 'Expand panel'} title={p.expanded ? 'Collapse' : 'Expand'}>
          <svg viewBox="0 0 20 20" width="16" height="16" aria-hidden="true">
            {p.expanded ? (
              <path d="M8 4l6 6-6 6" stroke="currentColor" strokeWidth="2" fill="none" strokeLinecap="round" strokeLinejoin="round" />
            ) : (
              <path d="M12 4l-6 6 6 6" stroke="currentColor" strokeWidth="2" fill="none" strokeLinecap="round" strokeLinejoin="round" />
            )}
          </svg>
        </button>
      </div>
    </header>
  );
}
