// How an agent is named and which of the seven statuses it shows, from the agent and the live statuses (pure).
import type { Agent } from '../schemas/agents';
import { AGENT_MESSAGES } from '../schemas/messages';
import { AGENT_STATUSES } from '../schemas/constants';

export type CanvasStatus = (typeof AGENT_STATUSES)[number];

export const isKnownStatus = (s: unknown): s is CanvasStatus =>
  typeof s === 'string' && (AGENT_STATUSES as readonly string[]).includes(s);

/** The runtime status from live updates, else the agent's own when it is one of the seven, else idle. */
export function statusOf(agent: Agent, statuses: Readonly<Record<string, string>>): CanvasStatus {
  const live = statuses[agent.id];
  if (isKnownStatus(live)) return live;
  const own = agent.status?.toLowerCase();
  return isKnownStatus(own) ? own : 'idle';
}

export const displayName = (agent: Agent) => agent.name || AGENT_MESSAGES.fallbackName(agent.id);
export const displayRole = (agent: Agent) => agent.role || AGENT_MESSAGES.fallbackRole;

/** Statuses in which an agent holds the floor. */
const SPEAKING_STATUSES = new Set(['speaking', 'responding']);

/**
 * The id of the agent speaking now, derived once for the canvas, the controls box and the panels: the agent the
 * sockets named speaking or responding last (the workspace keeps `statuses` in the order they were named,
 * newest last; ids are UUIDs, so the record's key order is that order), else one whose own status says so.
 */
export function activeSpeakerId(agents: readonly Agent[], statuses: Readonly<Record<string, string>>): string | null {
  const ids = Object.keys(statuses);
  for (let i = ids.length - 1; i >= 0; i--) {
    const id = ids[i];
    if (SPEAKING_STATUSES.has(statuses[id]) && agents.some((a) => a.id === id)) return id;
  }
  return activeSpeaker(agents, statuses)?.id ?? null;
}

/** The agent currently speaking (or responding) by its status, for the controls box. */
export function activeSpeaker(agents: readonly Agent[], statuses: Readonly<Record<string, string>>): Agent | null {
  return (
    agents.find((a) => {
      const s = statusOf(a, statuses);
      return s === 'speaking' || s === 'responding';
    }) ?? null
  );
}

export function selectedAgents(agents: readonly Agent[], selection: readonly string[]): Agent[] {
  const byId = new Map(agents.map((a) => [a.id, a]));
  return selection.map((id) => byId.get(id)).filter((a): a is Agent => a !== undefined);
}
