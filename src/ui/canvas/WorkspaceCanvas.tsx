// The canvas as the shell places it: the workspace actor exists only while a user is signed in.
import { useSelector } from '@xstate/react';
import { useMemo } from 'react';
import type { AppActorRef } from '../../machines/app.machine';
import {
  selectIsPanelShown,
  selectModels,
  selectPanelSave,
  selectStandardDiscussion,
  selectWorkspace,
} from '../../machines/app.selectors';
import { ConnectModelHint } from '../models/ConnectModelHint';
import type { WorkspaceActorRef } from '../../machines/workspace.machine';
import { CanvasArea } from './CanvasArea';
import { isUnreachable } from '../../model/modelsInUse';

const NONE: ReadonlySet<string> = new Set();

export function WorkspaceCanvas({ app }: { app: AppActorRef }) {
  const workspace = useSelector(app, selectWorkspace) as WorkspaceActorRef | undefined;
  const models = useSelector(app, selectModels);
  const panelShown = useSelector(app, selectIsPanelShown);
  // The agents whose model server the last check found down, as one string so the set changes only when they do.
  const connections = useSelector(models, (s) => s?.context.connections);
  const downKey = useSelector(workspace, (s) =>
    connections
      ? (s?.context.agents ?? [])
          .filter((a) => isUnreachable(a.model, connections))
          .map((a) => a.id)
          .join(' ')
      : '',
  );
  const unreachable = useMemo(() => (downKey ? new Set(downKey.split(' ')) : NONE), [downKey]);
  const panelSave = useSelector(app, selectPanelSave);
  if (!workspace) return null;
  // 'Save as panel' takes the selection and the standard panel's settings as they are when it is pressed.
  const saveAsPanel = panelSave
    ? () => {
        const discussion = selectStandardDiscussion(app.getSnapshot());
        if (!discussion) return;
        panelSave.send({
          type: 'panelSave.open',
          agentIds: workspace.getSnapshot().context.selectedIds,
          settings: discussion.getSnapshot().context.settings,
        });
      }
    : undefined;
  // Said once: the open panel carries the hint; with the panel hidden it sits in the canvas's overlay column,
  // which the fitted agents keep clear of, so it never covers a node.
  return (
    <CanvasArea
      workspace={workspace}
      unreachable={unreachable}
      panelShown={panelShown}
      onSaveAsPanel={saveAsPanel}
      notice={panelShown ? null : <ConnectModelHint models={models} where="canvas" />}
    />
  );
}
