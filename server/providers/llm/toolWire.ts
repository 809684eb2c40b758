import type { ChatMessage, ToolCallRequest, ToolSpec } from '../types';

// Tools in the two wire formats the LLM servers speak (docs/tools.md#the-call-loop): OpenAI's `tools` /
// assistant `tool_calls` / `tool` messages with the same `tool_call_id`, and Ollama's, which is the same with
// arguments as objects and the tool's name on its answer. A model's arguments are untrusted: read as an object,
// else empty.

export const toolsBody = (tools: readonly ToolSpec[] | undefined) =>
  tools?.length
    ? {
        tools: tools.map((t) => ({
          type: 'function',
          function: { name: t.name, description: t.description, parameters: t.parameters },
        })),
      }
    : {};

export function argumentsOf(raw: unknown): Record<string, unknown> {
  let v = raw;
  if (typeof v === 'string') {
    try {
      v = v.trim() ? JSON.parse(v) : {};
    } catch {
      return {};
    }
  }
  return v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : {};
}

/** OpenAI's messages: an assistant's calls with JSON-text arguments, each answer a `tool` message with its id. */
export const openaiMessages = (messages: readonly ChatMessage[]) =>
  messages.map((m) =>
    m.role === 'tool'
      ? { role: 'tool', tool_call_id: m.toolCallId, content: m.content }
      : m.toolCalls?.length
        ? {
            role: 'assistant',
            content: m.content || null,
            tool_calls: m.toolCalls.map((c) => ({
              id: c.id,
              type: 'function',
              function: { name: c.name, arguments: JSON.stringify(c.arguments) },
            })),
          }
        : { role: m.role, content: m.content },
  );

/** Ollama's messages: arguments as objects, a tool's answer named by the tool. */
export const ollamaMessages = (messages: readonly ChatMessage[]) =>
  messages.map((m) =>
    m.role === 'tool'
      ? { role: 'tool', content: m.content, tool_name: m.toolName }
      : m.toolCalls?.length
        ? {
            role: 'assistant',
            content: m.content,
            tool_calls: m.toolCalls.map((c) => ({ function: { name: c.name, arguments: c.arguments } })),
          }
        : { role: m.role, content: m.content },
  );

/** OpenAI streams a call in pieces (by index: the id and name first, the arguments' text in parts). */
export class StreamedCalls {
  private readonly parts = new Map<number, { id: string; name: string; args: string }>();
  /** At most this many calls and argument characters are kept of one answer. */
  constructor(
    private readonly maxCalls = 16,
    private readonly maxArgChars = 64 * 1024,
  ) {}

  add(deltas: unknown) {
    if (!Array.isArray(deltas)) return;
    for (const d of deltas as Array<{
      index?: number;
      id?: string;
      function?: { name?: string; arguments?: string };
    }>) {
      const index = typeof d.index === 'number' ? d.index : this.parts.size;
      let p = this.parts.get(index);
      if (!p) {
        if (this.parts.size >= this.maxCalls) continue;
        p = { id: '', name: '', args: '' };
        this.parts.set(index, p);
      }
      if (d.id) p.id = d.id.slice(0, 200);
      if (d.function?.name) p.name = (p.name + d.function.name).slice(0, 200);
      if (typeof d.function?.arguments === 'string' && p.args.length < this.maxArgChars) p.args += d.function.arguments;
    }
  }

  calls(prefix: string): ToolCallRequest[] {
    return [...this.parts.entries()]
      .sort(([a], [b]) => a - b)
      .filter(([, p]) => p.name)
      .map(([i, p]) => ({ id: p.id || `${prefix}${i}`, name: p.name, arguments: argumentsOf(p.args) }));
  }
}
