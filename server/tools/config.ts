// The caps on tools (README 'Limits', docs/tools.md#limits), each with its environment variable.

export interface ToolsConfig {
  /** TOOL_CALLS_PER_TURN: calls one agent may make in one turn before it must answer. */
  callsPerTurn: number;
  /** TOOL_CALL_TIMEOUT_MS: one call, connecting included. */
  callTimeoutMs: number;
  /** TOOL_RESULT_MAX_BYTES: what of a result the model reads (and the frame carries); the rest is cut and marked. */
  resultMaxBytes: number;
  /** MCP_MAX_TOOLS: tools kept of one server's list. */
  maxToolsPerServer: number;
  /** MCP_TOOL_LIST_MAX_BYTES: the size of one server's kept list (names, descriptions, input schemas). */
  toolListMaxBytes: number;
  /** MCP_RESPONSE_MAX_BYTES: any one HTTP answer of an MCP server, read no further. */
  responseMaxBytes: number;
  /** MCP_SERVERS_FILE: the operator's MCP servers (the only place a stdio command may come from). */
  serversFile: string | null;
  /** TOOL_CALLS_PER_MINUTE: calls per user per minute, over all their discussions. */
  callsPerMinute: number;
}

const num = (v: string | undefined, d: number) => {
  const n = Number(v);
  return v !== undefined && v !== '' && Number.isFinite(n) ? n : d;
};

export function toolsConfigFrom(env: NodeJS.ProcessEnv): ToolsConfig {
  return {
    callsPerTurn: Math.max(0, Math.min(64, num(env.TOOL_CALLS_PER_TURN, 8))),
    callTimeoutMs: Math.max(100, num(env.TOOL_CALL_TIMEOUT_MS, 30_000)),
    resultMaxBytes: Math.max(256, num(env.TOOL_RESULT_MAX_BYTES, 64 * 1024)),
    maxToolsPerServer: Math.max(1, num(env.MCP_MAX_TOOLS, 100)),
    toolListMaxBytes: Math.max(1_024, num(env.MCP_TOOL_LIST_MAX_BYTES, 256 * 1024)),
    responseMaxBytes: Math.max(64 * 1024, num(env.MCP_RESPONSE_MAX_BYTES, 16 * 1024 * 1024)),
    serversFile: env.MCP_SERVERS_FILE?.trim() || null,
    callsPerMinute: Math.max(1, num(env.TOOL_CALLS_PER_MINUTE, 60)),
  };
}
