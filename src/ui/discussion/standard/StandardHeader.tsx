// The standard panel's header (docs/product.md#discussions-screens): the shared header (common/PanelHeader.tsx) with
// what only this panel has: the connection badge, 'About this run', and the Advanced Settings toggle.
import { Badge, type BadgeTone } from '../../common/Badge';
import type { ConnectionStatus } from '../../../machines/discussionPanel.selectors';
import { PanelHeader } from '../common/PanelHeader';
import { AboutRun, type EndpointsFacts } from './AboutRun';

const STATUS_TONE: Record<ConnectionStatus, BadgeTone> = {
  disconnected: 'neutral',
  connecting: 'warning',
  connected: 'success',
  error: 'danger',
};

export interface StandardHeaderProps {
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

export function StandardHeader(p: StandardHeaderProps) {
  return (
    <PanelHeader
      title={p.title}
      live={p.live}
      starting={p.starting}
      hasMessages={p.hasMessages}
      expanded={p.expanded}
      onToggleExpanded={p.onToggleExpanded}
      onShowHistory={p.onShowHistory}
      facts={
        <>
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
        </>
      }
      actions={
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
      }
    />
  );
}
