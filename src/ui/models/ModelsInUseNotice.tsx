// Before Start: which models the selected agents will speak with, and whose model server is not answering. While
// every selected agent is on the offline demo the 'Get a real model' card says so instead.
import { useSelector } from '@xstate/react';
import type { ModelsActorRef } from '../../machines/models.machine';
import type { WorkspaceActorRef } from '../../machines/workspace.machine';
import { modelsInUse, unreachableQuestion } from '../../model/modelsInUse';

export function ModelsInUseNotice({
  models,
  workspace,
}: {
  models: ModelsActorRef | undefined;
  workspace: WorkspaceActorRef | undefined;
}) {
  const connections = useSelector(models, (s) => s?.context.connections ?? []);
  const agents = useSelector(workspace, (s) => {
    const chosen = new Set(s?.context.selectedIds ?? []);
    return (s?.context.agents ?? []).filter((a) => chosen.has(a.id));
  });
  if (!models || agents.length === 0) return null;
  const use = modelsInUse(agents, connections);
  if (use.allOffline) return null;
  return (
    <p
      className={`models-in-use${use.unreachable.length ? ' models-in-use--warn' : ''}`}
      role="note"
      aria-label="Models in use"
    >
      {use.line}.
      {use.unreachable.length > 0 && (
        <strong> {unreachableQuestion(use.unreachable).replace(' — start anyway?', '.')}</strong>
      )}
    </p>
  );
}
