// How a tool call is said in words (docs/tools.md): its row in the feed, its line in the PDF and its entry in the
// JSON export read the same words. Pure.
import { toolCallState, type ToolCallState } from './feed';
import type { ToolCallEntry } from './feed/types';
import type { ExportedToolCall } from '../schemas/exportJson';

/** What a call row says of its state. */
export const TOOL_STATE_WORDS: Record<ToolCallState, string> = {
  waiting: 'waiting for you',
  running: 'running…',
  done: 'done',
  failed: 'failed',
  refused: 'refused',
};

/** Longest arguments line and result excerpt shown folded (the whole result is in the export). */
export const TOOL_ARGS_LINE_MAX = 120;
export const TOOL_EXCERPT_MAX = 200;

const cut = (s: string, max: number) => (s.length > max ? `${s.slice(0, max - 1)}…` : s);

const valueText = (v: unknown): string => (typeof v === 'string' ? JSON.stringify(v) : (JSON.stringify(v) ?? 'null'));

/** `expression: "12 * 7"` — each argument as name: value, on one line. */
export function argumentsLine(args: Readonly<Record<string, unknown>>, max = TOOL_ARGS_LINE_MAX): string {
  const parts = Object.entries(args).map(([k, v]) => `${k}: ${valueText(v)}`);
  return cut(parts.join(', ').replace(/\s+/g, ' '), max);
}

/** The start of a result, on one line; a result the server cut says so. */
export function resultExcerpt(call: ToolCallEntry, max = TOOL_EXCERPT_MAX): string {
  const r = call.result;
  if (!r) return '';
  const text = cut(r.content.replace(/\s+/g, ' ').trim(), max);
  return r.truncated ? `${text} (cut by the server)` : text;
}

/** The folded row's line: 'calculator(expression: "12 * 7") → 84 · 3 ms' (its state is the row's badge). */
export function toolCallSummary(call: ToolCallEntry): string {
  const state = toolCallState(call);
  const head = `${call.tool}(${argumentsLine(call.arguments, 60)})`;
  if (state === 'done') return `${head} → ${resultExcerpt(call, 60) || '(empty)'} · ${call.result!.ms} ms`;
  // The row's badge says the state; the line adds only what went wrong.
  if (state === 'failed') return `${head} · ${call.result?.error ?? 'no answer'}`;
  return head;
}

/** The PDF's line for a call under its turn, in Latin-1 words (the PDF keeps its built-in font for them). */
export function toolCallLine(call: ExportedToolCall): string {
  const where = call.server === 'builtin' ? '' : ` (${call.server})`;
  const head = `Tool ${call.tool}${where}: ${argumentsLine(call.arguments).replace('…', '...')}`;
  if (call.state === 'done') {
    const text = call.content.replace(/\s+/g, ' ').trim();
    const shown = text.length > TOOL_EXCERPT_MAX ? `${text.slice(0, TOOL_EXCERPT_MAX)}...` : text;
    return `${head} - returned ${shown || '(nothing)'}${call.truncated ? ' (cut)' : ''} in ${call.ms} ms`;
  }
  if (call.state === 'failed') return `${head} - failed: ${call.error ?? 'no answer'}`;
  return `${head} - ${call.state === 'running' ? 'running' : TOOL_STATE_WORDS[call.state]}`;
}

export function exportToolCall(call: ToolCallEntry): ExportedToolCall {
  return {
    id: call.id,
    tool: call.tool,
    server: call.server,
    arguments: { ...call.arguments },
    state: toolCallState(call),
    ok: call.result?.ok ?? null,
    content: call.result?.content ?? '',
    truncated: call.result?.truncated ?? false,
    ms: call.result?.ms ?? null,
    error: call.result?.error ?? null,
    needs_approval: call.needsApproval,
  };
}
