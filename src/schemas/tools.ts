import { z } from 'zod';
import { text } from './common';

// Tools (docs/tools.md): what an agent may call during its turn — the server's built-in tools and the tools of MCP
// servers the person connects. The names are the wire contract (issue 'Tools'): agent fields `tools` and
// `ask_before_tools`, frames `tool_call` / `tool_result`, the client's `tool_approval`.

/** The connection id of the server's own tools: their ids are "builtin/<name>". */
export const BUILTIN_TOOL_SERVER = 'builtin';

/** The built-in tools, listed like an MCP server's tools (the server implements each: server/tools/builtin/). */
export const BUILTIN_TOOLS = [
  {
    name: 'calculator',
    description: 'Exact arithmetic on an expression: + - * / ^ %, parentheses, decimals (e.g. "(12.5 + 7) * 3").',
  },
  {
    name: 'search_sources',
    description: "Search the discussion's sources (the documents the person attached) for passages on a question.",
  },
  { name: 'search_papers', description: 'Search the research providers for papers on a query.' },
] as const;
export type BuiltinToolName = (typeof BUILTIN_TOOLS)[number]['name'];

/** A tool's name as an MCP server or the built-ins list it. */
export const toolInfo = z.object({ name: z.string().max(128), description: z.string().max(2_000).default('') });
export type ToolInfo = z.infer<typeof toolInfo>;

/** "<connection id>/<tool name>": the connection that offers it (or "builtin") and the tool's own name. */
export const TOOL_ID_PATTERN = /^[^/\s]{1,100}\/[^\s]{1,128}$/;
export const toolId = text().regex(TOOL_ID_PATTERN, 'A tool id is "<connection id>/<tool name>"');
/** At most this many tools on one agent. */
export const MAX_AGENT_TOOLS = 64;
export const toolIds = z.array(toolId).max(MAX_AGENT_TOOLS);

export const toolIdOf = (server: string, name: string): string => `${server}/${name}`;
export const splitToolId = (id: string): { server: string; name: string } => {
  const at = id.indexOf('/');
  return { server: id.slice(0, at), name: id.slice(at + 1) };
};

/** On an agent (read and PATCH): the tools it may call, and whether each call waits for the person's approval. */
export const agentToolFields = {
  tools: toolIds.optional(),
  ask_before_tools: z.boolean().optional(),
};

const ts = z.string().optional();

/**
 * An agent calls a tool (before its turn's text). `server` is the connection id ("builtin" for the built-ins),
 * `tool` the tool's name; with `needs_approval` the call waits for a `tool_approval` from the person.
 */
export const toolCallFrame = z.looseObject({
  type: z.literal('tool_call'),
  id: z.string(),
  agent_id: z.string(),
  message_id: z.string(),
  tool: z.string(),
  server: z.string(),
  arguments: z.record(z.string(), z.unknown()),
  needs_approval: z.boolean().optional(),
  timestamp: ts,
});
export type ToolCallFrame = z.infer<typeof toolCallFrame>;

/** The call's outcome: `content` as the model read it (cut to the cap and marked `truncated`), its time in ms. */
export const toolResultFrame = z.looseObject({
  type: z.literal('tool_result'),
  id: z.string(),
  ok: z.boolean(),
  content: z.string(),
  truncated: z.boolean(),
  ms: z.number().nonnegative(),
  error: z.string().optional(),
  timestamp: ts,
});
export type ToolResultFrame = z.infer<typeof toolResultFrame>;

export const TOOL_FRAMES = [toolCallFrame, toolResultFrame] as const;

/** The person's answer to a call that waits (`needs_approval`): run it, or refuse it (the server never calls it). */
export const toolApprovalMessage = z.object({
  type: z.literal('tool_approval'),
  id: text().min(1).max(200),
  approve: z.boolean(),
});
export type ToolApprovalMessage = z.infer<typeof toolApprovalMessage>;
