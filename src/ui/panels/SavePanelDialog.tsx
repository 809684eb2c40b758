// 'Save as panel': the canvas's selected agents, with the Discussion panel's format and settings as now chosen,
// saved under a name other clients call it by. It only draws the panelSave chart's snapshot and sends its events.
import { useSelector } from '@xstate/react';
import { useId } from 'react';
import type { PanelSaveActorRef } from '../../machines/panelSave.machine';
import * as sel from '../../machines/panels.selectors';
import { formatLabel } from '../../model/discussionFormat';
import { panelAgentNames } from '../../model/savedPanel';
import { joinNames } from '../../model/historyRow';
import { PANEL_NAME_MAX } from '../../schemas/panels';
import type { Agent } from '../../schemas/agents';
import { FormActions, NameField } from '../common/DialogParts';
import { ModalDialog } from '../common/ModalDialog';
import './panels.css';

export function SavePanelDialog({ actor, agents }: { actor: PanelSaveActorRef; agents: readonly Agent[] }) {
  const draft = useSelector(actor, sel.selectPanelSaveDraft);
  const name = useSelector(actor, sel.selectPanelSaveName);
  const error = useSelector(actor, sel.selectPanelSaveError);
  const saving = useSelector(actor, sel.selectIsPanelSaving);
  const id = useId();
  const close = () => !saving && actor.send({ type: 'panelSave.close' });
  if (!draft) return null;
  return (
    <ModalDialog labelledBy={`${id}-title`} onClose={close}>
      <div className="panels-backdrop" onClick={close}>
        <div className="panels-dialog panels-dialog--small" onClick={(e) => e.stopPropagation()}>
          <div className="panels-dialog__header">
            <div>
              <h2 id={`${id}-title`}>Save as panel</h2>
              <p className="panels-dialog__lead">
                Keep these agents with their format and settings under a name, to start again from Panels or to ask from
                other tools.
              </p>
            </div>
          </div>
          <form
            className="panels-dialog__body"
            onSubmit={(e) => {
              e.preventDefault();
              actor.send({ type: 'panelSave.submit' });
            }}
          >
            <dl className="panels-facts">
              <div>
                <dt>Agents ({draft.agent_ids.length}):</dt>
                <dd>{joinNames(panelAgentNames(draft, agents))}</dd>
              </div>
              <div>
                <dt>Format:</dt>
                <dd>{formatLabel(draft.format?.kind)}</dd>
              </div>
              <div>
                <dt>Settings:</dt>
                <dd>the Discussion panel’s Advanced Settings as they are now</dd>
              </div>
            </dl>
            <NameField
              id={id}
              label="Name"
              value={name}
              error={error}
              hint={
                <>
                  One line, at most {PANEL_NAME_MAX} characters, no slashes: other tools call it{' '}
                  <code className="panels-code">panel:&lt;name&gt;</code>.
                </>
              }
              disabled={saving}
              autoComplete="off"
              maxLength={PANEL_NAME_MAX + 20}
              onChange={(name) => actor.send({ type: 'panelSave.name.change', name })}
            />
            <FormActions busy={saving} submit="Save panel" onCancel={close} />
          </form>
        </div>
      </div>
    </ModalDialog>
  );
}

export default SavePanelDialog;
