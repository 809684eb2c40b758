// The 'Panels' dialog: the person's saved panels (name, agents, format, last change), renamed in place, deleted
// after a question, and started: 'Start discussion' selects the panel's agents with its format and settings in the
// Discussion panel. It only draws the panels chart's snapshot and sends its events.
import { AlertLine, DialogHeader } from '../common/DialogParts';
import { useSelector } from '@xstate/react';
import { useId } from 'react';
import type { PanelsActorRef } from '../../machines/panels.machine';
import * as sel from '../../machines/panels.selectors';
import { formatLabel } from '../../model/discussionFormat';
import { joinNames } from '../../model/historyRow';
import { panelAgentNames } from '../../model/savedPanel';
import type { Agent } from '../../schemas/agents';
import type { Panel } from '../../schemas/panels';
import { PANEL_NAME_MAX } from '../../schemas/panels';
import { ConfirmDialog } from '../common/ConfirmDialog';
import { ModalDialog } from '../common/ModalDialog';
import './panels.css';

const dateLabel = (iso: string) => new Date(iso).toLocaleString();

function RenameField({ actor, panel }: { actor: PanelsActorRef; panel: Panel }) {
  const rename = useSelector(actor, sel.selectPanelRename);
  const saving = useSelector(actor, sel.selectIsRenaming);
  const id = useId();
  if (!rename) return null;
  return (
    <form
      onSubmit={(e) => {
        e.preventDefault();
        actor.send({ type: 'panels.rename.commit' });
      }}
    >
      <div className="panels-rename">
        <input
          aria-label={`New name for ${panel.name}`}
          value={rename.name}
          maxLength={PANEL_NAME_MAX + 20}
          autoComplete="off"
          // The field the person just asked for takes the focus.
          autoFocus
          aria-invalid={rename.error ? true : undefined}
          aria-describedby={rename.error ? `${id}-error` : undefined}
          disabled={saving}
          onChange={(e) => actor.send({ type: 'panels.rename.change', name: e.target.value })}
          onKeyDown={(e) => {
            if (e.key !== 'Escape') return;
            // Esc leaves the field, not the dialog.
            e.preventDefault();
            e.stopPropagation();
            actor.send({ type: 'panels.rename.cancel' });
          }}
        />
        <button type="submit" className="button button--small button--primary" disabled={saving}>
          {saving ? 'Saving…' : 'Save'}
        </button>
        <button
          type="button"
          className="button button--small"
          disabled={saving}
          onClick={() => actor.send({ type: 'panels.rename.cancel' })}
        >
          Cancel
        </button>
      </div>
      {rename.error && (
        <p id={`${id}-error`} className="panels-error" role="alert">
          {rename.error}
        </p>
      )}
    </form>
  );
}

function PanelCard({ actor, panel, agents }: { actor: PanelsActorRef; panel: Panel; agents: readonly Agent[] }) {
  const renamingThis = useSelector(actor, (s) => sel.selectPanelRename(s)?.id === panel.id);
  const busy = useSelector(actor, sel.selectIsPanelsBusy);
  const names = panelAgentNames(panel, agents);
  return (
    <li className="panels-card" aria-label={panel.name}>
      <div className="panels-card__main">
        {renamingThis ? (
          <RenameField actor={actor} panel={panel} />
        ) : (
          <span className="panels-card__name">{panel.name}</span>
        )}
        <p className="panels-card__meta">
          {names.length} agents: {joinNames(names)}
        </p>
        <p className="panels-card__meta">
          {formatLabel(panel.format?.kind)} · updated{' '}
          <time dateTime={panel.updated_at}>{dateLabel(panel.updated_at)}</time>
        </p>
      </div>
      {!renamingThis && (
        <div className="panels-card__actions">
          <button
            type="button"
            className="button button--small button--primary"
            disabled={busy}
            onClick={() => actor.send({ type: 'panels.start', id: panel.id })}
            aria-label={`Start discussion with ${panel.name}`}
          >
            Start discussion
          </button>
          <button
            type="button"
            className="button button--small"
            disabled={busy}
            onClick={() => actor.send({ type: 'panels.rename.begin', id: panel.id })}
            aria-label={`Rename ${panel.name}`}
          >
            Rename
          </button>
          <button
            type="button"
            className="button button--small button--danger"
            disabled={busy}
            onClick={() => actor.send({ type: 'panels.delete.request', id: panel.id })}
            aria-label={`Delete ${panel.name}`}
          >
            Delete
          </button>
        </div>
      )}
    </li>
  );
}

export function PanelsDialog({ actor, agents }: { actor: PanelsActorRef; agents: readonly Agent[] }) {
  const panels = useSelector(actor, sel.selectPanelList);
  const loading = useSelector(actor, sel.selectIsPanelsLoading);
  const loadError = useSelector(actor, sel.selectPanelsLoadError);
  const actionError = useSelector(actor, sel.selectPanelsActionError);
  const toDelete = useSelector(actor, sel.selectPanelToDelete);
  const deleting = useSelector(actor, sel.selectIsDeletingPanel);
  const id = useId();
  const close = () => actor.send({ type: 'panels.close' });
  return (
    <ModalDialog labelledBy={`${id}-title`} onClose={close}>
      <div className="panels-backdrop" onClick={close}>
        <div className="panels-dialog" onClick={(e) => e.stopPropagation()}>
          <DialogHeader
            prefix="panels-dialog"
            titleId={`${id}-title`}
            title="Panels"
            lead={
              <>Your saved panels: agents with their format and settings, started here or asked from other tools.</>
            }
            onClose={close}
          />
          <div className="panels-dialog__body">
            {actionError && (
              <AlertLine
                className="panels-alert"
                action="Dismiss"
                onAction={() => actor.send({ type: 'panels.error.dismiss' })}
              >
                {actionError}
              </AlertLine>
            )}
            {loadError && (
              <AlertLine className="panels-alert" action="Retry" onAction={() => actor.send({ type: 'panels.retry' })}>
                The panels could not be loaded: {loadError}
              </AlertLine>
            )}
            {loading && <p className="panels-note">Loading your panels…</p>}
            {!loading && !loadError && panels.length === 0 && (
              <div className="panels-empty">
                <p>
                  No panels yet. A panel is a named group of your agents with the discussion format and settings they
                  run with, so you can start the same discussion again in one click, or ask it from other tools (an MCP
                  client, an OpenAI-compatible chat) as <code className="panels-code">panel:&lt;name&gt;</code>.
                </p>
                <p>To save one: select two agents or more on the canvas, then press Save as panel beside them.</p>
              </div>
            )}
            {panels.length > 0 && (
              <ul className="panels-list" aria-label="Saved panels">
                {panels.map((p) => (
                  <PanelCard key={p.id} actor={actor} panel={p} agents={agents} />
                ))}
              </ul>
            )}
            <p className="panels-note panels-note--foot">
              Use a panel from other tools: create an API token (More actions → API tokens), then follow
              docs/integrations.md for Claude Desktop, Cursor, Open WebUI or curl.
            </p>
          </div>
        </div>
      </div>
      {toDelete && (
        <ConfirmDialog
          message={`Delete the panel “${toDelete.name}”? Its agents and past discussions stay; other tools can no longer ask panel:${toDelete.name}.`}
          confirmLabel={deleting ? 'Deleting…' : 'Delete panel'}
          busy={deleting}
          onConfirm={() => actor.send({ type: 'panels.delete.confirm' })}
          onCancel={() => actor.send({ type: 'panels.delete.cancel' })}
        />
      )}
    </ModalDialog>
  );
}

export default PanelsDialog;
