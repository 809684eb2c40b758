import type { ChatRequest, ToolCallRequest } from '../../types';
import type { TurnContext } from '../../../engine/turnAnswer';

// The demo model uses tools too (docs/tools.md#the-demo-model): offered `calculator`, it calls it once on the
// numbers of the last turn it heard (else of the topic) and says the result in its turn, so the feature shows with
// nothing installed. Deterministic, as the rest of the offline model.

const NUMBER = /(?<![\w.])-?\d+(?:\.\d+)?(?![\w.]*[A-Za-z])/g;
const RESULT_BLOCK = /<tool_output[^>]*>\n([\s\S]*?)\n<\/tool_output>/;

function expressionFor(ctx: TurnContext): string | null {
  const last = ctx.history.filter((h) => !h.human).at(-1)?.content;
  for (const text of [last, ctx.topic]) {
    const numbers = (text ?? '').match(NUMBER)?.slice(0, 2) ?? [];
    if (numbers.length === 2) return `${numbers[0]} * ${numbers[1]}`;
    if (numbers.length === 1) return `${numbers[0]} * 2`;
  }
  return null;
}

/** The call the demo model makes: calculator, once per turn, when offered and a number is there to work on. */
export function offlineToolCall(req: ChatRequest, ctx: TurnContext): ToolCallRequest | null {
  if (!req.tools?.some((t) => t.name === 'calculator')) return null;
  if (req.messages.some((m) => m.role === 'tool')) return null;
  const expression = expressionFor(ctx);
  return expression ? { id: `offline-calc-${ctx.turn}`, name: 'calculator', arguments: { expression } } : null;
}

/** What it says of the calculator's answer, when it had one this turn. */
export function offlineToolNote(req: ChatRequest): string | null {
  const asked = req.messages.findLast((m) => m.toolCalls?.length)?.toolCalls?.[0];
  const answer = req.messages.findLast((m) => m.role === 'tool');
  if (!asked || !answer) return null;
  const result = RESULT_BLOCK.exec(answer.content)?.[1]?.trim() ?? answer.content.trim();
  if (/^(Error|The person refused)/.test(result) || !result) return null;
  return `By the calculator, ${String(asked.arguments.expression ?? '').replace(/\*/g, '×')} = ${result.slice(0, 80)}.`;
}
