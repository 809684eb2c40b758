import type { EvalTaskItem } from '../../src/schemas/eval';
import type { ChatMessage } from '../providers/types';
import { LETTERS } from './tasks';

// How a question is put to a model and how its answer is read. A model is asked to end with 'Answer: <answer>';
// the built-in engine is held to it by a JSON-schema grammar instead. What is compared is a normal form: a number
// for numeric answers, a letter for multiple choice, else lower-case words.

export function questionText(item: EvalTaskItem): string {
  if (!item.choices) return item.question;
  return `${item.question}\n${item.choices.map((c, i) => `${LETTERS[i]}. ${c}`).join('\n')}`;
}

/** What the final line must hold, in words the model reads. */
export const answerShape = (item: EvalTaskItem) =>
  item.choices ? 'the letter of your choice' : isNumeric(item.answer) ? 'a single number' : 'a few words';

export const ANSWER_LINE = (item: EvalTaskItem) =>
  `End your reply with one line of the form "Answer: <${answerShape(item)}>".`;

/** The JSON answer the built-in engine's grammar enforces. */
export const answerJsonSchema = (withReasoning: boolean): Record<string, unknown> => ({
  type: 'object',
  properties: { ...(withReasoning ? { reasoning: { type: 'string' } } : {}), answer: { type: 'string' } },
  required: withReasoning ? ['reasoning', 'answer'] : ['answer'],
  additionalProperties: false,
});

const isNumeric = (s: string) => /^-?\d+(\.\d+)?$/.test(s.trim().replace(/,/g, ''));

/** The answer's normal form, or null when the text holds none that fits the question. */
export function normalize(raw: string, item: EvalTaskItem): string | null {
  const a = raw
    .trim()
    .replace(/^["'`*]+|["'`*.]+$/g, '')
    .trim();
  if (!a) return null;
  if (item.choices) {
    const letter = /^\(?([A-J])\)?(?:[.):\s]|$)/i.exec(a)?.[1]?.toUpperCase();
    if (letter && LETTERS.indexOf(letter) < item.choices.length) return letter;
    const at = item.choices.findIndex((c) => c.trim().toLowerCase() === a.toLowerCase());
    return at >= 0 ? LETTERS[at] : null;
  }
  if (isNumeric(item.answer)) {
    const n = /-?\d[\d,]*(\.\d+)?/.exec(a)?.[0];
    return n === undefined ? null : String(Number(n.replace(/,/g, '')));
  }
  return a.toLowerCase().replace(/\s+/g, ' ');
}

/** The answer a reply gives: its JSON `answer` (grammar), else its last 'Answer:' line. */
export function readAnswer(reply: string, item: EvalTaskItem, json: boolean): string | null {
  if (json) {
    try {
      const v = JSON.parse(reply) as { answer?: unknown };
      return typeof v.answer === 'string' || typeof v.answer === 'number' ? normalize(String(v.answer), item) : null;
    } catch {
      return null;
    }
  }
  const lines = [...reply.matchAll(/answer\s*[:：]\s*(.+)/gi)];
  const last = lines.at(-1)?.[1];
  return last === undefined ? null : normalize(last, item);
}

/** The reasoning part of a reply, shortened: what other agents read of it. */
export function reasoningOf(reply: string, json: boolean, maxChars = 600): string {
  let text = reply;
  if (json) {
    try {
      const v = JSON.parse(reply) as { reasoning?: unknown; answer?: unknown };
      text = `${typeof v.reasoning === 'string' ? v.reasoning : ''}\nAnswer: ${String(v.answer ?? '')}`.trim();
    } catch {
      /* the raw reply */
    }
  }
  text = text.trim();
  return text.length > maxChars ? `…${text.slice(-maxChars)}` : text;
}

export const isCorrect = (answer: string | null, item: EvalTaskItem) =>
  answer !== null && answer === normalize(item.answer, item);

export const repairMessages = (item: EvalTaskItem, messages: ChatMessage[], reply: string): ChatMessage[] => [
  ...messages,
  { role: 'assistant', content: reply.slice(0, 4_000) },
  {
    role: 'user',
    content:
      'Your reply did not end with a readable answer. ' + `Reply with only one line: "Answer: <${answerShape(item)}>".`,
  },
];
