// How a speaker looks in the feed: the agent's colour and avatar (src/model/agentIdentity.ts) from the workspace
// when the agent is there, else derived from its id and name, so a stored discussion keeps its colours too.
import { useSelector } from '@xstate/react';
import type { WorkspaceActorRef } from '../../../machines/workspace.machine';
import { agentAvatar, agentColor } from '../../../model/agentIdentity';
import { isDemoModel } from '../../../model/modelName';
import { canDrawText } from '../../../services/glyphSupport';
import type { Agent } from '../../../schemas/agents';

export interface AgentLook {
  color: string;
  avatar: string;
  /** The agent's role as stored, for a turn whose frames did not carry it (multi-round, a stopped turn). */
  role?: string | null;
  /** It speaks with the offline demo model: the bubble says 'demo model' beside its name. */
  demo?: boolean;
}

export function lookOf(
  agent: Pick<Agent, 'id'> & Partial<Pick<Agent, 'name' | 'color' | 'avatar' | 'model'>> & { role?: unknown },
): AgentLook {
  const role = typeof agent.role === 'string' && agent.role.trim() ? agent.role : null;
  // Only a record that carries a model can say it is the demo one (a speaker known by its name alone cannot).
  const demo = typeof agent.model === 'string' && isDemoModel(agent.model);
  return { color: agentColor(agent), avatar: agentAvatar(agent, canDrawText), role, demo };
}

/**
 * The workspace's record of one agent (or undefined); a row re-renders only when that agent changes. By id, else by
 * name when exactly one agent has it (the hybrid socket's frames name their speaker without the canvas's id), so a
 * speaker looks the same on its node and in its bubbles.
 */
export function useWorkspaceAgent(
  workspace: WorkspaceActorRef | undefined,
  agentId: string | null,
  agentName?: string | null,
): Agent | undefined {
  return useSelector(workspace, (s) => {
    if (!s) return undefined;
    const agents = s.context.agents;
    const byId = agentId ? agents.find((a) => a.id === agentId) : undefined;
    if (byId || !agentName) return byId;
    const named = agents.filter((a) => a.name === agentName);
    return named.length === 1 ? named[0] : undefined;
  });
}
