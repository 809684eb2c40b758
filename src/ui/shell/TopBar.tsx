// The main screen's top bar (docs/product.md#workspace-screens 'Main screen'): who is signed in, the workspace counts,
// the badges and the buttons. Counts come from the workspace actor; badges from tags and states.
import { useSelector } from '@xstate/react';
import { useFocusReturn } from '../common/focus';
import { useRef, useState } from 'react';
import type { AppActorRef } from '../../machines/app.machine';
import {
  selectDevPanel,
  selectIsHybridView,
  selectIsPanelShown,
  selectIsTestingConnection,
  selectApiTokens,
  selectEvaluation,
  selectModels,
  selectPanels,
  selectProfile,
  selectStandardDiscussion,
  selectWorkspace,
} from '../../machines/app.selectors';
import type { SessionActorRef } from '../../machines/session.machine';
import {
  selectDisplayName,
  selectIsExpiringSoon,
  selectIsOperator,
  selectUserEmail,
} from '../../machines/session.selectors';
import { selectIsLive } from '../../machines/discussionPanel.selectors';
import { selectAgentCount, selectConnectionCount, selectSelectedCount } from '../../machines/workspace.selectors';
import { useUiConfig } from '../AppContext';
import { Badge } from '../common/Badge';
import { MoreIcon } from '../common/icons';
import { focusMenuItem, menuButtonOpens, onMenuKey } from '../common/menuKeys';

function Counts({ app }: { app: AppActorRef }) {
  const workspace = useSelector(app, selectWorkspace);
  const agents = useSelector(workspace, (s) => (s ? selectAgentCount(s) : 0));
  const selected = useSelector(workspace, (s) => (s ? selectSelectedCount(s) : 0));
  const connections = useSelector(workspace, (s) => (s ? selectConnectionCount(s) : 0));
  return (
    <ul className="counts" aria-label="Workspace counts">
      <li>
        <span className="counts__value" data-testid="count-agents">
          {agents}
        </span>{' '}
        agents
      </li>
      <li>
        <span className="counts__value" data-testid="count-selected">
          {selected}
        </span>{' '}
        selected
      </li>
      <li>
        <span className="counts__value" data-testid="count-connections">
          {connections}
        </span>{' '}
        connections
      </li>
    </ul>
  );
}

export function TopBar({ app, session }: { app: AppActorRef; session: SessionActorRef }) {
  const { isDev } = useUiConfig();
  const email = useSelector(session, selectUserEmail);
  const name = useSelector(session, selectDisplayName);
  const profile = useSelector(app, selectProfile);
  const operator = useSelector(session, selectIsOperator);
  const expiringSoon = useSelector(session, selectIsExpiringSoon);
  const hybrid = useSelector(app, selectIsHybridView);
  const panelShown = useSelector(app, selectIsPanelShown);
  const discussion = useSelector(app, selectStandardDiscussion);
  const discussionActive = useSelector(discussion, (s) => (s ? selectIsLive(s) : false));
  const devPanel = useSelector(app, selectDevPanel);
  const testing = useSelector(app, selectIsTestingConnection);
  const models = useSelector(app, selectModels);
  const [menuOpen, setMenuOpen] = useState(false);
  // Which end of the menu takes the focus when it opens (ArrowUp on the button opens it at the last item).
  const [openAt, setOpenAt] = useState<'first' | 'last'>('first');
  // Closing the menu returns the focus to its button.
  useFocusReturn(menuOpen);
  const moreButton = useRef<HTMLButtonElement>(null);
  // A chosen item closes the menu and hands the focus back to its button first, so a dialog the item opens
  // knows what opened it (and gives the focus back there when it closes).
  const choose = (run: () => void) => () => {
    setMenuOpen(false);
    moreButton.current?.focus();
    run();
  };

  return (
    <header className="topbar">
      <div className="topbar__identity">
        <h1 className="topbar__brand">Agora</h1>
        {/* The spec's top bar names the user by email; the display name beside it is what others see in rooms. */}
        <span className="topbar__user" title={operator ? `${email ?? ''}, the server’s operator` : undefined}>
          {email}
        </span>
        <button
          type="button"
          className="topbar__user topbar__name"
          title={`Signed in as ${email ?? ''}${operator ? ', the server’s operator' : ''}. Change the name others see.`}
          aria-haspopup="dialog"
          aria-label={`Your display name: ${name ?? ''}. Change it`}
          disabled={!profile}
          onClick={() => profile?.send({ type: 'profile.open', current: name ?? '' })}
        >
          {name}
        </button>
        {operator && (
          <Badge tone="info" title="You manage this server’s shared models and see its paths and addresses">
            Operator
          </Badge>
        )}
      </div>
      <Counts app={app} />
      <div className="topbar__badges" role="group" aria-label="Status">
        {discussionActive && <Badge tone="success">Discussion Active</Badge>}
        {hybrid && <Badge tone="info">Hybrid Mode</Badge>}
        {expiringSoon && <Badge tone="warning">Session Expiring Soon</Badge>}
      </div>
      <nav className="topbar__actions" aria-label="Main actions">
        <button
          type="button"
          className="button button--small"
          onClick={() => app.send({ type: 'view.discussion.toggle' })}
        >
          {hybrid ? 'Switch to Standard' : 'Switch to Hybrid'}
        </button>
        <button
          type="button"
          className="button button--small"
          aria-pressed={panelShown}
          onClick={() => app.send({ type: 'view.panel.toggle' })}
        >
          {panelShown ? 'Hide Discussion' : 'Show Discussion'}
        </button>
        {/* Secondary actions (the connection test; Debug and Test in development) live in one menu, so the bar
            stays on one line down to 1024 px. */}
        <div className="topbar__more">
          <button
            type="button"
            className="button button--small button--icon"
            ref={moreButton}
            aria-label="More actions"
            title="More actions"
            aria-haspopup="menu"
            aria-expanded={menuOpen}
            aria-controls={menuOpen ? 'topbar-more-menu' : undefined}
            onClick={() => {
              setOpenAt('first');
              setMenuOpen((v) => !v);
            }}
            onKeyDown={(e) => {
              const at = menuButtonOpens(e);
              if (!at) return;
              e.preventDefault();
              setOpenAt(at);
              setMenuOpen(true);
            }}
          >
            <MoreIcon size={18} />
          </button>
          {menuOpen && (
            <>
              <div className="topbar__menu-backdrop" onClick={() => setMenuOpen(false)} />
              <div
                id="topbar-more-menu"
                className="topbar__menu"
                role="menu"
                aria-label="More actions"
                ref={(el) => {
                  if (el && !el.contains(document.activeElement)) focusMenuItem(el, openAt);
                }}
                onKeyDown={(e) =>
                  onMenuKey(e, (refocus) => {
                    setMenuOpen(false);
                    if (refocus) moreButton.current?.focus();
                  })
                }
              >
                <p className="topbar__menu-who" role="presentation">
                  <span className="topbar__menu-email">{email}</span>
                  {name && <span className="muted">Shown to others as {name}</span>}
                  <span className="muted">{operator ? 'Operator: manages the shared models' : 'Member'}</span>
                </p>
                <button
                  type="button"
                  role="menuitem"
                  className="topbar__menu-item"
                  disabled={!models}
                  onClick={choose(() => models?.send({ type: 'models.open' }))}
                >
                  Models
                </button>
                <button
                  type="button"
                  role="menuitem"
                  className="topbar__menu-item"
                  onClick={choose(() => selectEvaluation(app.getSnapshot())?.send({ type: 'evaluation.open' }))}
                >
                  Evaluate
                </button>
                <button
                  type="button"
                  role="menuitem"
                  className="topbar__menu-item"
                  onClick={choose(() => selectPanels(app.getSnapshot())?.send({ type: 'panels.open' }))}
                >
                  Panels
                </button>
                <button
                  type="button"
                  role="menuitem"
                  className="topbar__menu-item"
                  onClick={choose(() => selectApiTokens(app.getSnapshot())?.send({ type: 'apiTokens.open' }))}
                >
                  API tokens
                </button>
                <button
                  type="button"
                  role="menuitem"
                  className="topbar__menu-item"
                  disabled={testing}
                  onClick={choose(() => app.send({ type: 'connection.test' }))}
                >
                  {testing ? 'Testing…' : 'Test Connection'}
                </button>
                <button
                  type="button"
                  role="menuitem"
                  className="topbar__menu-item"
                  disabled={!profile}
                  onClick={choose(() => profile?.send({ type: 'profile.open', current: name ?? '' }))}
                >
                  Change display name…
                </button>
                {isDev && (
                  <>
                    <button
                      type="button"
                      role="menuitemcheckbox"
                      aria-checked={devPanel === 'debug'}
                      className="topbar__menu-item"
                      onClick={choose(() => app.send({ type: 'view.debug.toggle' }))}
                    >
                      Debug
                    </button>
                    <button
                      type="button"
                      role="menuitemcheckbox"
                      aria-checked={devPanel === 'tester'}
                      className="topbar__menu-item"
                      onClick={choose(() => app.send({ type: 'view.tester.toggle' }))}
                    >
                      Test
                    </button>
                  </>
                )}
              </div>
            </>
          )}
        </div>
        <button
          type="button"
          className="button button--small button--danger"
          onClick={() => session.send({ type: 'session.logout' })}
        >
          Logout
        </button>
      </nav>
    </header>
  );
}
