// Who the participants strip shows, for both panels: the run's agents while it is live, the canvas's selection
// otherwise; names and roles from what the server said of the run (when the panel has it) or from the workspace;
// statuses and the active speaker from the workspace.
import { useSelector } from '@xstate/react';
import { useMemo } from 'react';
import type { WorkspaceActorRef } from '../../../machines/workspace.machine';
import { selectActiveSpeakerId } from '../../../machines/workspace.selectors';
import type { StripAgent } from './AgentStrip';

const NONE: readonly { id: string; name: string; role?: string | null }[] = [];

export function useStripAgents(
  workspace: WorkspaceActorRef | undefined,
  run: {
    live: boolean;
    runIds: readonly string[];
    participants?: readonly { id: string; name: string; role?: string | null }[];
  },
): { agents: StripAgent[]; speaker: string | null } {
  const { live, runIds, participants = NONE } = run;
  const wsAgents = useSelector(workspace, (s) => s?.context.agents);
  const selectedIds = useSelector(workspace, (s) => s?.context.selectedIds);
  const statuses = useSelector(workspace, (s) => s?.context.statuses);
  const speaker = useSelector(workspace, (s) => (s ? selectActiveSpeakerId(s) : null));
  const agents = useMemo(() => {
    const ids = live && runIds.length > 0 ? runIds : (selectedIds ?? []);
    return [...new Set(ids)].map((id) => {
      const p = participants.find((x) => x.id === id);
      const a = wsAgents?.find((x) => x.id === id);
      return {
        id,
        name: p?.name ?? a?.name ?? `Agent ${id.slice(-8)}`,
        role: p?.role ?? a?.role ?? null,
        status: statuses?.[id] ?? 'idle',
      };
    });
  }, [live, runIds, selectedIds, participants, wsAgents, statuses]);
  return { agents, speaker };
}
