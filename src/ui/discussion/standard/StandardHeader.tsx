// The standard panel's header (docs/product.md#discussions-screens): the shared header (common/PanelHeader.tsx) with
// what only this panel has: the connection badge, 'About this run', and the Advanced Settings toggle.
import type { ReactNode } from 'react';
import { Badge, type BadgeTone } from '../../common/Badge';
import type { ConnectionStatus } from '../../../machines/discussionPanel.selectors';
import { PanelHeader, type PanelHeaderProps } from '../common/PanelHeader';
import { AboutRun, type EndpointsFacts } from './AboutRun';

const STATUS_TONE: Record<ConnectionStatus, BadgeTone> = {
  disconnected: 'neutral',
  connecting: 'warning',
  connected: 'success',
  error: 'danger',
};

export type StandardHeaderProps = Omit<PanelHeaderProps, 'facts' | 'actions'> & {
  sessionId: string | null;
  endpointName: string | null;
  endpointPath: string | null;
  status: ConnectionStatus;
  settingsOpen: boolean;
  onToggleSettings: () => void;
  /** Why this kind of discussion will run, for 'About this run'. */
  why?: string;
  endpoints?: EndpointsFacts;
  /** The owner's Invite button while the run is live (ui/rooms/RoomViews.tsx). */
  invite?: ReactNode;
};

export function StandardHeader({
  sessionId,
  endpointName,
  endpointPath,
  status,
  settingsOpen,
  onToggleSettings,
  why,
  endpoints,
  invite,
  ...header
}: StandardHeaderProps) {
  return (
    <PanelHeader
      {...header}
      facts={
        <>
          {/* Not connected is the normal state between runs: only a connection being made, made or failed is news. */}
          {status !== 'disconnected' && (
            <Badge tone={STATUS_TONE[status]} title="Connection status">
              {status}
            </Badge>
          )}
          <AboutRun
            sessionId={sessionId}
            endpointName={endpointName}
            endpointPath={endpointPath}
            why={why}
            endpoints={endpoints}
          />
        </>
      }
      actions={
        <>
          {invite}
          <button
            type="button"
            className="icon-button"
            aria-pressed={settingsOpen}
            aria-expanded={settingsOpen}
            aria-controls="advanced-settings"
            onClick={onToggleSettings}
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
        </>
      }
    />
  );
}
