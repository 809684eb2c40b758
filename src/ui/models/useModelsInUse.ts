// What the selected agents will speak with, and whose model server is not answering, for the panel before Start.
// While the panel is idle, a new set of connections among the selected agents is checked at once (the list the
// models actor holds may be seconds old, and a server may have stopped since): the notice, the cards and Start's
// question then say so before a turn fails.
import { shallowEqual, useSelector } from '@xstate/react';
import { useEffect, useMemo } from 'react';
import type { ModelsActorRef } from '../../machines/models.machine';
import type { WorkspaceActorRef } from '../../machines/workspace.machine';
import { connectionOf, modelsInUse, type ModelsInUse } from '../../model/modelsInUse';
import { OFFLINE_MODEL } from '../../schemas/constants';

export function useModelsInUse(
  models: ModelsActorRef | undefined,
  workspace: WorkspaceActorRef | undefined,
  idle: boolean,
): ModelsInUse | null {
  const connections = useSelector(models, (s) => s?.context.connections ?? []);
  const agents = useSelector(
    workspace,
    (s) => {
      const chosen = new Set(s?.context.selectedIds ?? []);
      return (s?.context.agents ?? []).filter((a) => chosen.has(a.id));
    },
    shallowEqual,
  );
  const use = useMemo(
    () => (models && agents.length > 0 ? modelsInUse(agents, connections) : null),
    [models, agents, connections],
  );
  // The connections the selected agents use, as one key: a check goes out when it changes, not on every render.
  const key = [
    ...new Set(
      agents
        .map((a) => a.model || OFFLINE_MODEL)
        .filter((m) => m !== OFFLINE_MODEL)
        .map((m) => connectionOf(m, connections)?.id ?? m),
    ),
  ]
    .sort()
    .join(' ');
  useEffect(() => {
    if (idle && key) models?.send({ type: 'models.status.check' });
  }, [models, idle, key]);
  return use;
}
