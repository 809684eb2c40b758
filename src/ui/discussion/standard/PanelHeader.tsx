// The standard panel's header (docs/product.md#discussions-screens): the title (it says what will run, or runs), the
// Live/Idle and connection badges, the Advanced Settings and expand toggles. The endpoint's address and the session id
// are not in the main view (issue 18): an 'About this run' popover keeps them for whoever needs them.
import { useState } from 'react';
import { Badge, type BadgeTone } from '../../common/Badge';
import type { ConnectionStatus } from '../../../machines/standardDiscussion.selectors';

const STATUS_TONE: Record<ConnectionStatus, BadgeTone> = {
  disconnected: 'neutral',
  connecting: 'warning',
  connected: 'success',
  error: 'danger',
};

export interface PanelHeaderProps {
  title: string;
  sessionId: string | null;
  endpointName: string | null;
  endpointPath: string | null;
  status: ConnectionStatus;
  live: boolean;
  settingsOpen: boolean;
  expanded: boolean;
  onToggleSettings: () => void;
  onToggleExpanded: () => void;
  /** Opens the History dialog (absent until the history actor is there). */
  onShowHistory?: () => void;
}

/** The run's technical facts, behind a small disclosure (built only while open); Esc closes it. */
export function AboutRun({
  sessionId,
  endpointName,
  endpointPath,
}: {
  sessionId: string | null;
  endpointName: string | null;
  endpointPath: string | null;
}) {
  const [open, setOpen] = useState(false);
  return (
    <details
      className="about-run"
      onToggle={(e) => setOpen((e.currentTarget as HTMLDetailsElement).open)}
      onKeyDown={(e) => {
        if (e.key === 'Escape' && e.currentTarget.open) {
          e.currentTarget.open = false;
          e.currentTarget.querySelector('summary')?.focus();
        }
      }}
    >
      <summary>About this run</summary>
      {open && (
        <dl className="about-run__facts">
          <dt>Discussion kind</dt>
          <dd>{endpointName ?? 'Chosen when it starts'}</dd>
          {endpointPath && (
            <>
              <dt>Server address</dt>
              <dd>
                <code>{endpointPath}</code>
              </dd>
            </>
          )}
          <dt>Session</dt>
          <dd>{sessionId ? <code>{sessionId}</code> : 'Not started yet'}</dd>
        </dl>
      )}
    </details>
  );
}

export function PanelHeader(p: PanelHeaderProps) {
  return (
    <header className="panel-header">
      <div className="panel-header__title">
        <h2>{p.title}</h2>
        <div className="panel-header__facts">
          <Badge tone={p.live ? 'success' : 'neutral'}>{p.live ? 'Live' : 'Idle'}</Badge>
          {/* Not connected is the normal state between runs: only a connection being made, made or failed is news. */}
          {p.status !== 'disconnected' && (
            <Badge tone={STATUS_TONE[p.status]} title="Connection status">
              {p.status}
            </Badge>
          )}
          <AboutRun sessionId={p.sessionId} endpointName={p.endpointName} endpointPath={p.endpointPath} />
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
        <button
          type="button"
          className="icon-button"
          aria-pressed={p.settingsOpen}
          aria-expanded={p.settingsOpen}
          aria-controls="advanced-settings"
          onClick={p.onToggleSettings}
          aria-label="Advanced Settings"
          title="Advanced Settings"
        >
          <svg viewBox="0 0 20 20" width="16" height="16" aria-hidden="true">
            <path
              d="M3 5h8M15 5h2M3 10h2M9 10h8M3 15h10M17 15h0"
              stroke="currentColor"
              strokeWidth="1.8"
              strokeLinecap="round"
            />
            <circle cx="13" cy="5" r="2" fill="none" stroke="currentColor" strokeWidth="1.8" />
            <circle cx="7" cy="10" r="2" fill="none" stroke="currentColor" strokeWidth="1.8" />
            <circle cx="15" cy="15" r="2" fill="none" stroke="currentColor" strokeWidth="1.8" />
          </svg>
          <span>Settings</span>
        </button>
        <button
          type="button"
          className="icon-button icon-button--square"
          aria-pressed={p.expanded}
          onClick={p.onToggleExpanded}
          aria-label={p.expanded ? 'Collapse panel' : 'Expand panel'}
          title={p.expanded ? 'Collapse' : 'Expand'}
        >
          <svg viewBox="0 0 20 20" width="16" height="16" aria-hidden="true">
            {p.expanded ? (
              <path
                d="M8 4l6 6-6 6"
                stroke="currentColor"
                strokeWidth="2"
                fill="none"
                strokeLinecap="round"
                strokeLinejoin="round"
              />
            ) : (
              <path
                d="M12 4l-6 6 6 6"
                stroke="currentColor"
                strokeWidth="2"
                fill="none"
                strokeLinecap="round"
                strokeLinejoin="round"
              />
            )}
          </svg>
        </button>
      </div>
    </header>
  );
}
