// The canvas as the shell places it: the workspace actor exists only while a user is signed in.
import { useSelector } from '@xstate/react';
import type { AppActorRef } from '../../machines/app.machine';
import { selectIsPanelShown, selectModels, selectWorkspace } from '../../machines/app.selectors';
import { ConnectModelHint } from '../models/ConnectModelHint';
import type { WorkspaceActorRef } from '../../machines/workspace.machine';
import { CanvasArea } from './CanvasArea';

export function WorkspaceCanvas({ app }: { app: AppActorRef }) {
  const workspace = useSelector(app, selectWorkspace) as WorkspaceActorRef | undefined;
  const models = useSelector(app, selectModels);
  const panelShown = useSelector(app, selectIsPanelShown);
  if (!workspace) return null;
  // Said once: the open panel carries the hint; with the panel hidden it sits in the canvas's overlay column,
  // which the fitted agents keep clear of, so it never covers a node.
  return (
    <CanvasArea
      workspace={workspace}
      notice={panelShown ? null : <ConnectModelHint models={models} where="canvas" />}
    />
  );
}
