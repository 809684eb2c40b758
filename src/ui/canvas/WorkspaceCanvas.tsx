// The canvas as the shell places it: the workspace actor exists only while a user is signed in.
import { useSelector } from '@xstate/react';
import type { AppActorRef } from '../../machines/app.machine';
import { selectModels, selectWorkspace } from '../../machines/app.selectors';
import { ConnectModelHint } from '../models/ConnectModelHint';
import type { WorkspaceActorRef } from '../../machines/workspace.machine';
import { CanvasArea } from './CanvasArea';

export function WorkspaceCanvas({ app }: { app: AppActorRef }) {
  const workspace = useSelector(app, selectWorkspace) as WorkspaceActorRef | undefined;
  const models = useSelector(app, selectModels);
  if (!workspace) return null;
  return (
    <>
      <ConnectModelHint models={models} where="canvas" />
      <CanvasArea workspace={workspace} />
    </>
  );
}
