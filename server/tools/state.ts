import { subsystemPlugin } from '../http/subsystem';
import type { ListedTool } from './mcp/client';
import { type OperatorServer, readOperatorServers } from './mcp/operatorServers';

// The tools subsystem's per-server state, carried by the AppContext (`ctx.tools`): the operator's MCP servers (read
// once at start), each server's tool list briefly cached, and each user's recent calls (TOOL_CALLS_PER_MINUTE).

export interface KnownToolList {
  version: string;
  at: number;
  tools: ListedTool[] | null;
  error?: string;
}

export interface ToolsState {
  operator: OperatorServer[];
  /** By connection id. */
  lists: Map<string, KnownToolList>;
  /** By user: when their last calls started (ms), the oldest first. */
  calls: Map<string, number[]>;
  /** Calls waiting for the person's `tool_approval`, by call id (ids are unique per discussion and turn). */
  approvals: Map<string, { userId: string; answer(approve: boolean): void }>;
}

declare module '../context' {
  interface AppContext {
    tools: ToolsState;
  }
}

export const toolsPlugin = subsystemPlugin('tools', 'tools', {
  create: ({ ctx: { config } }): ToolsState => ({
    operator: readOperatorServers(config.tools.serversFile),
    lists: new Map(),
    calls: new Map(),
    approvals: new Map(),
  }),
  // A call still waiting for the person is refused as the server closes, so its turn ends instead of hanging.
  close: (state) => {
    for (const waiting of state.approvals.values()) waiting.answer(false);
    state.approvals.clear();
  },
});

/** Counts one call against the user's TOOL_CALLS_PER_MINUTE; false when the minute's calls are spent. */
export function takeCallSlot(state: ToolsState, userId: string, perMinute: number, now = Date.now()): boolean {
  const recent = (state.calls.get(userId) ?? []).filter((t) => now - t < 60_000);
  if (recent.length >= perMinute) {
    state.calls.set(userId, recent);
    return false;
  }
  recent.push(now);
  state.calls.set(userId, recent);
  return true;
}
