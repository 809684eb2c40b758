import type { ChatHistoryItem, ChatModelFunctionCall, ChatModelFunctions, ChatWrapper } from 'node-llama-cpp';
import { argumentsOf } from '../toolWire';
import type { ChatMessage, ToolCallRequest, ToolSpec } from '../../types';
import { grammarSchema } from './grammarSchema';

// Tools in the built-in engine's own format (docs/tools.md#the-call-loop): node-llama-cpp's chat functions. The
// chat wrapper writes them into the prompt in the model's template (or its generic '||call: name({…})' syntax) and
// a grammar holds the model to a listed name and arguments of the tool's schema; the call loop runs the calls, and
// each answer goes back as the function call's result inside the model's own response, which the model continues.

/** Whether the model's chat wrapper has a function-call syntax at all (every one node-llama-cpp ships has). */
export const supportsFunctions = (wrapper: ChatWrapper) => wrapper.settings.functions?.call?.prefix != null;

/** The offered tools as node-llama-cpp functions; a schema's keywords the grammar cannot read are dropped. */
export function functionsOf(tools: readonly ToolSpec[]): ChatModelFunctions {
  return Object.fromEntries(
    tools.map((t) => [
      t.name,
      {
        description: t.description,
        // biome-ignore lint/suspicious/noExplicitAny: the reduced schema is checked by node-llama-cpp at run time
        params: grammarSchema({ type: 'object', ...t.parameters }) as any,
      },
    ]),
  );
}

/** The model's calls as the call loop reads them; node-llama-cpp gives no ids, so they are numbered per turn. */
export function callsOf(
  calls: ReadonlyArray<{ functionName: string; params: unknown }>,
  messages: readonly ChatMessage[],
): ToolCallRequest[] {
  const before = messages.reduce((n, m) => n + (m.toolCalls?.length ?? 0), 0);
  return calls.map((c, i) => ({
    id: `call_${before + i + 1}`,
    name: c.functionName,
    arguments: argumentsOf(c.params),
  }));
}

/**
 * The conversation as node-llama-cpp's history. An assistant message that asked for tools becomes a model response
 * holding its calls, each with the `tool` message that answered it as its result; the text the model writes next
 * continues that same response (a history ending in a model response is continued, not answered anew).
 */
export function toHistory(messages: readonly ChatMessage[]): ChatHistoryItem[] {
  const answers = new Map(messages.filter((m) => m.role === 'tool').map((m) => [m.toolCallId, m.content]));
  const out: ChatHistoryItem[] = [];
  for (const m of messages) {
    if (m.role === 'system') out.push({ type: 'system', text: m.content });
    else if (m.role === 'user') out.push({ type: 'user', text: m.content });
    else if (m.role === 'assistant') {
      const calls = (m.toolCalls ?? []).map(
        (c): ChatModelFunctionCall => ({
          type: 'functionCall',
          name: c.name,
          params: c.arguments,
          result: answers.get(c.id) ?? 'No answer',
        }),
      );
      const last = out.at(-1);
      const text = m.content ? [m.content] : [];
      // A round of calls after a round of calls continues the response that made the first.
      if (calls.length && last?.type === 'model' && last.response.some((p) => typeof p === 'object'))
        last.response.push(...text, ...calls);
      else out.push({ type: 'model', response: calls.length ? [...text, ...calls] : [m.content] });
    }
  }
  return out;
}
