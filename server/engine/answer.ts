import { ARGUMENT_TYPES } from '../../src/schemas/constants';
import { stance as stanceSchema, turnAnswer, type TurnAnswer } from './turnAnswer';

// Models are asked for a TurnAnswer as JSON, but real ones sometimes wrap it in prose or code fences, think
// aloud first, or ignore the format altogether. This reads what they meant; only an empty answer fails the turn.

export class UnusableAnswerError extends Error {}

const STAGE_TYPES: Record<string, TurnAnswer['argument_type']> = {
  brainstorming: 'proposal',
  analysis: 'support',
  critique: 'counter',
  synthesis: 'synthesis',
  consensus: 'synthesis',
  implementation: 'proposal',
};

function jsonObjectIn(text: string): Record<string, unknown> | null {
  const candidates = [text, text.replace(/^```(?:json)?\s*|\s*```$/g, '')];
  const first = text.indexOf('{');
  const last = text.lastIndexOf('}');
  if (first >= 0 && last > first) candidates.push(text.slice(first, last + 1));
  for (const c of candidates) {
    try {
      const v = JSON.parse(c);
      if (v && typeof v === 'object' && !Array.isArray(v)) return v as Record<string, unknown>;
    } catch {
      /* try the next reading */
    }
  }
  return null;
}

const strings = (v: unknown): string[] =>
  Array.isArray(v)
    ? v.map((x) => (typeof x === 'string' ? x : JSON.stringify(x))).filter(Boolean)
    : typeof v === 'string' && v
      ? [v]
      : [];
const text = (v: unknown) => (typeof v === 'string' ? v.trim() : null);

export function parseTurnAnswer(raw: string, stage?: string | null): TurnAnswer {
  const cleaned = raw.replace(/<think>[\s\S]*?<\/think>/gi, '').trim();
  const obj = jsonObjectIn(cleaned);
  const fallbackType = STAGE_TYPES[stage ?? ''] ?? 'support';
  if (!obj) {
    if (!cleaned) throw new UnusableAnswerError('the model gave an empty answer');
    // It set out to write the structured answer and did not finish it (a cut-off stream, broken JSON): say so,
    // rather than show braces and keys as if they were the agent's words.
    if (/^(\{|```)/.test(cleaned))
      throw new UnusableAnswerError('its structured answer was cut off or is not valid JSON');
    return turnAnswer.parse({ content: cleaned, stance: 'neutral', confidence: 0.5, argument_type: fallbackType });
  }
  const content = text(obj.content) || text(obj.text) || text(obj.message) || text(obj.response);
  if (!content) throw new UnusableAnswerError('the model answered without any content');
  const st = stanceSchema.safeParse(String(obj.stance ?? '').toLowerCase());
  const conf = Number(obj.confidence);
  const type = String(obj.argument_type ?? '').toLowerCase();
  return turnAnswer.parse({
    content,
    stance: st.success ? st.data : 'neutral',
    confidence: Number.isFinite(conf) ? Math.min(1, Math.max(0, conf > 1 && conf <= 100 ? conf / 100 : conf)) : 0.5,
    argument_type: (ARGUMENT_TYPES as readonly string[]).includes(type) ? type : fallbackType,
    reasoning: strings(obj.reasoning),
    evidence: strings(obj.evidence),
    addressed_to: text(obj.addressed_to),
    performative: text(obj.performative)?.toLowerCase() || 'inform',
    delegate_to: text(obj.delegate_to),
    delegation_task: text(obj.delegation_task),
    next_speaker: text(obj.next_speaker),
    position: text(obj.position)?.slice(0, 400) || null,
    option_id: text(obj.option_id)?.slice(0, 64) || null,
    moved_by: text(obj.moved_by)?.slice(0, 400) || null,
  });
}

/** At most `maxWords` words, closed with an ellipsis when cut. */
export function limitWords(s: string, maxWords: number): string {
  const words = s.split(/(\s+)/);
  let count = 0;
  let out = '';
  for (const w of words) {
    if (/\S/.test(w)) {
      if (count >= maxWords) return `${out.trimEnd()}…`;
      count++;
    }
    out += w;
  }
  return out;
}
