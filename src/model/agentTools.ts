// The tools an agent may call, as the editor's 'Tools' section edits them (docs/tools.md): the ids switched on, the
// 'Ask me before each call' choice, and the part of a create or update body they become. Pure; the chart is
// src/machines/editor.machine.ts, the view src/ui/editor/ToolsSection.tsx.
import type { Agent } from '../schemas/agents';
import type { ToolCatalog } from '../schemas/toolConnections';
import { MAX_AGENT_TOOLS } from '../schemas/tools';

export type ToolCatalogServer = ToolCatalog['servers'][number];

export interface AgentTools {
  /** Tool ids "<connection id>/<tool name>"; nothing is on by default. */
  tools: readonly string[];
  askBeforeTools: boolean;
}

export const noTools: AgentTools = { tools: [], askBeforeTools: false };

export const toolsOf = (a: Agent | null): AgentTools =>
  a ? { tools: a.tools ?? [], askBeforeTools: a.ask_before_tools ?? false } : noTools;

/** The list with `id` switched on or off (at most MAX_AGENT_TOOLS on; the order they were switched on). */
export function toggledTool(list: readonly string[], id: string, on: boolean): readonly string[] {
  if (on) return list.includes(id) || list.length >= MAX_AGENT_TOOLS ? list : [...list, id];
  return list.includes(id) ? list.filter((t) => t !== id) : list;
}

const sameSet = (a: readonly string[], b: readonly string[]) => a.length === b.length && a.every((x) => b.includes(x));

/** The body's tool fields: only what changed from the stored agent (a create sends what is on). */
export function toolsBody(agent: Agent | null, t: AgentTools): { tools?: string[]; ask_before_tools?: boolean } {
  const stored = toolsOf(agent);
  return {
    ...(sameSet(stored.tools, t.tools) ? {} : { tools: [...t.tools] }),
    ...(stored.askBeforeTools === t.askBeforeTools ? {} : { ask_before_tools: t.askBeforeTools }),
  };
}

/** Tools the agent has that no server lists now (a server removed, a tool renamed): shown so they can be turned off. */
export function missingTools(tools: readonly string[], catalog: readonly ToolCatalogServer[]): string[] {
  const listed = new Set(catalog.flatMap((s) => s.tools.map((x) => x.id)));
  // A server that could not be listed keeps its tools: they may be back when it answers.
  const unlisted = new Set(catalog.filter((s) => s.error).map((s) => s.id));
  return tools.filter((id) => !listed.has(id) && !unlisted.has(id.slice(0, id.indexOf('/'))));
}
