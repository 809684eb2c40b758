import type { ToolInfo } from '../../src/schemas/tools';

// The shapes every tool has, whoever serves it (the built-ins, an MCP server): what a model is offered and how a
// call is run. The call loop (callLoop.ts) reads only these.

/** A tool as a model is offered it: its id ("<server>/<name>"), and the JSON Schema of its arguments. */
export interface OfferedTool extends ToolInfo {
  id: string;
  server: string;
  inputSchema: Record<string, unknown>;
}

/** What a call gives back: text for the model; `isError` when the tool said it failed (the model still reads why). */
export interface ToolOutput {
  content: string;
  isError?: boolean;
}

/** Runs one call of a tool; the signal ends it (Stop, the call's time limit). */
export type RunTool = (args: Record<string, unknown>, signal: AbortSignal) => Promise<ToolOutput>;

/** A tool ready to be called in one turn. */
export interface ReadyTool extends OfferedTool {
  run: RunTool;
}
