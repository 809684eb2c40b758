// The standard panel's header (docs/product.md#discussions-screens): the title (it says what will run, or runs), the
// run badge (Live, Starting, Finished, Idle) and connection badge, the Advanced Settings and expand toggles. The endpoint's address and the session id
// are not in the main view: an 'About this run' popover keeps them for whoever needs them.
import { Badge, type BadgeTone } from '../../common/Badge';
import { RunBadge } from '../common/RunBadge';
import type { ConnectionStatus } from '../../../machines/discussionPanel.selectors';
import { ExpandToggle } from '../common/PanelButtons';

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
  /** A run is being prepared or connected, not yet live. */
  starting: boolean;
  /** The feed holds a discussion's messages (a finished run reads 'Finished', not 'Idle'). */
  hasMessages: boolean;
  settingsOpen: boolean;
  expanded: boolean;
  onToggleSettings: () => void;
  onToggleExpanded: () => void;
  /** Opens the History dialog (absent until the history actor is there). */
  onShowHistory?: () => void;
  /** Why this kind of discussion will run, for 'About this run'. */
  why?: string;
  endpoints?: EndpointsFacts;
}

/** What the endpoint probe found, and its Refresh: technical, so in 'About this run' only. */
export interface EndpointsFacts {
  /** 'Basic, Enhanced, Multi-Round Reasoning, Hybrid NLP/ACL', or 'Checking...'. */
  line: string;
  probing: boolean;
  onRefresh: () => void;
}

/**
 * The run's technical facts behind a small disclosure; Esc closes it. Its content is in the page while closed (the
 * browser hides it), so what the endpoint probe found can be read without opening it.
 */
export function AboutRun({
  sessionId,
  endpointName,
  endpointPath,
  why,
  endpoints,
}: {
  sessionId: string | null;
  endpointName: string | null;
  endpointPath: string | null;
  /** Why this kind of discussion will run (interrupts, research, multi-round…). */
  why?: string;
  endpoints?: EndpointsFacts;
}) {
  return (
    <details
      className="about-run"
      onKeyDown={(e) => {
        if (e.key === 'Escape' && e.currentTarget.open) {
          e.currentTarget.open = false;
          e.currentTarget.querySelector('summary')?.focus();
        }
      }}
    >
      <summary>About this run</summary>
      <div className="about-run__facts">
        <dl className="about-run__list">
          <dt>Discussion kind</dt>
          <dd>{endpointName ?? 'Chosen when it starts'}</dd>
          {why && (
            <>
              <dt>Why</dt>
              <dd>{why}</dd>
            </>
          )}
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
        {endpoints && (
          <p className="about-run__endpoints">
            <span>Available endpoints: {endpoints.line}</span>
            <button
              type="button"
              className="link-button link-button--small"
              onClick={endpoints.onRefresh}
              disabled={endpoints.probing}
            >
              {endpoints.probing ? 'Checking…' : 'Refresh'}
            </button>
          </p>
        )}
      </div>
    </details>
  );
}

export function PanelHeader(p: PanelHeaderProps) {
  return (
    <header className="panel-header">
      <div className="panel-header__title">
        <h2>{p.title}</h2>
        <div className="panel-header__facts">
          <RunBadge live={p.live} starting={p.starting} hasMessages={p.hasMessages} />
          {/* Not connected is the normal state between runs: only a connection being made, made or failed is news. */}
          {p.status !== 'disconnected' && (
            <Badge tone={STATUS_TONE[p.status]} title="Connection status">
              {p.status}
            </Badge>
          )}
          <AboutRun
            sessionId={p.sessionId}
            endpointName={p.endpointName}
            endpointPath={p.endpointPath}
            why={p.why}
            endpoints={p.endpoints}
          />
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
        <ExpandToggle expanded={p.expanded} onToggle={p.onToggleExpanded} />
      </div>
    </header>
  );
}
