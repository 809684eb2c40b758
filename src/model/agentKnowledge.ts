// An agent's own sources (the editor's 'Knowledge' section, docs/sources.md): which of the person's sources only
// this agent reads. Pure; the editor chart keeps the ticked ids and sends them with Update Agent as `source_ids`.
import type { Agent } from '../schemas/agents';
import type { SourceAddedEvent } from './sourcesList';

export type KnowledgeEvent =
  | { type: 'editor.knowledge.toggle'; id: string; on: boolean }
  /** Files to add through the sources chart; each one read is ticked for this agent. */
  | { type: 'editor.knowledge.add'; files: File[] }
  | SourceAddedEvent;

/** The agent's own sources as the server answered them. */
export const knowledgeOf = (agent: Agent | null): string[] => [...(agent?.source_ids ?? [])];

export const toggled = (ids: readonly string[], id: string, on: boolean): string[] =>
  on ? [...new Set([...ids, id])] : ids.filter((x) => x !== id);

/** `source_ids` for an update: sent only when the ticks differ from what the agent has (order does not matter). */
export function knowledgeBody(agent: Agent | null, ids: readonly string[]): { source_ids?: string[] } {
  const had = new Set(agent?.source_ids ?? []);
  const same = had.size === ids.length && ids.every((id) => had.has(id));
  return same ? {} : { source_ids: [...ids] };
}
