// The constrained answers a format asks for — a moderator's pick, an anonymous ranking, a judge's vote — as JSON
// Schemas (the built-in engine turns them into a grammar; OpenAI-compatible servers and Ollama are asked for them)
// and as readers that accept what a real model writes around them. An unreadable answer says why in plain words.

type Schema = Record<string, unknown>;

export const pickSchema = (choices: string[]): Schema => ({
  type: 'object',
  properties: {
    next_speaker: { type: 'string', enum: choices, description: 'who speaks next, or ask, or close' },
    content: { type: 'string', description: 'one line: why' },
  },
  required: ['next_speaker', 'content'],
});

export const rankSchema = (labels: string[]): Schema => ({
  type: 'object',
  properties: {
    ranking: {
      type: 'array',
      minItems: labels.length,
      maxItems: labels.length,
      items: {
        type: 'object',
        properties: { answer: { type: 'string', enum: labels }, reason: { type: 'string' } },
        required: ['answer', 'reason'],
      },
    },
    content: { type: 'string', description: 'one line on the ranking as a whole' },
  },
  required: ['ranking', 'content'],
});

export const voteSchema: Schema = {
  type: 'object',
  properties: {
    side: { type: 'string', enum: ['for', 'against'] },
    confidence: { type: 'number', minimum: 0, maximum: 1 },
    content: { type: 'string', description: 'one line: why' },
  },
  required: ['side', 'confidence', 'content'],
};

export type Read<T> = { ok: true; value: T } | { ok: false; why: string };

function objectIn(raw: string): Record<string, unknown> | null {
  const cleaned = raw.replace(/<think>[\s\S]*?<\/think>/gi, '').trim();
  const first = cleaned.indexOf('{');
  const last = cleaned.lastIndexOf('}');
  for (const c of [cleaned, first >= 0 && last > first ? cleaned.slice(first, last + 1) : '']) {
    try {
      const v: unknown = JSON.parse(c);
      if (v && typeof v === 'object' && !Array.isArray(v)) return v as Record<string, unknown>;
    } catch {
      /* the next reading */
    }
  }
  return null;
}

const str = (v: unknown) => (typeof v === 'string' ? v.trim() : '');
const line = (s: string) => s.replace(/\s+/g, ' ').trim().slice(0, 300);
const plain = (raw: string) => raw.replace(/<think>[\s\S]*?<\/think>/gi, '').trim();

/** A moderator's pick: one of `choices` (agent names, 'ask', 'close'), case-insensitive, with its reason. */
export function readPick(raw: string, choices: string[]): Read<{ choice: string; reason: string }> {
  const obj = objectIn(raw);
  const said = obj ? str(obj.next_speaker) || str(obj.choice) || str(obj.speaker) : plain(raw).split('\n')[0];
  const reason = obj ? str(obj.content) || str(obj.reason) : plain(raw).split('\n').slice(1).join(' ') || plain(raw);
  const key = said
    .replace(/^@/, '')
    .replace(/[."']+$/g, '')
    .trim()
    .toLowerCase();
  const exact = choices.find((c) => c.toLowerCase() === key);
  const named = exact ?? (obj ? undefined : choices.find((c) => new RegExp(`\\b${escape(c)}\\b`, 'i').test(said)));
  if (!named)
    return {
      ok: false,
      why: said ? `"${line(said).slice(0, 60)}" is not one of ${choices.join(', ')}` : 'it named nobody',
    };
  return { ok: true, value: { choice: named, reason: line(reason) || 'no reason given' } };
}

/** An anonymous ranking of `labels`: at least one label, best first; labels left out follow in their order. */
export function readRanking(raw: string, labels: string[]): Read<{ order: string[]; reasons: Record<string, string> }> {
  const obj = objectIn(raw);
  const order: string[] = [];
  const reasons: Record<string, string> = {};
  const take = (label: string, reason?: string) => {
    const l = label
      .replace(/^answer\s+/i, '')
      .trim()
      .toUpperCase();
    if (labels.includes(l) && !order.includes(l)) {
      order.push(l);
      if (reason) reasons[l] = line(reason);
    }
  };
  const list = obj && Array.isArray(obj.ranking) ? obj.ranking : null;
  if (list) {
    for (const item of list) {
      if (typeof item === 'string') take(item);
      else if (item && typeof item === 'object')
        take(str((item as Record<string, unknown>).answer), str((item as Record<string, unknown>).reason));
    }
  } else {
    for (const m of (obj ? str(obj.content) : plain(raw)).matchAll(/\b(?:answer\s+)?([A-Z])\b/g)) take(m[1]);
  }
  if (!order.length) return { ok: false, why: 'it gave no ranking of the answers' };
  return { ok: true, value: { order: [...order, ...labels.filter((l) => !order.includes(l))], reasons } };
}

/** A judge's vote: a side (for/against, or support/oppose) and a confidence in [0, 1]. */
export function readVote(raw: string): Read<{ side: 'for' | 'against'; confidence: number; reason: string }> {
  const obj = objectIn(raw);
  const said = (obj ? str(obj.side) || str(obj.stance) || str(obj.vote) : plain(raw)).toLowerCase();
  const side = /^(for|support|pro|yes)\b/.test(said)
    ? 'for'
    : /^(against|oppose|con|no)\b/.test(said)
      ? 'against'
      : null;
  if (!side)
    return { ok: false, why: said ? `"${line(said).slice(0, 40)}" is neither For nor Against` : 'it chose no side' };
  const n = Number(obj?.confidence);
  const confidence = Number.isFinite(n) ? Math.min(1, Math.max(0, n > 1 && n <= 100 ? n / 100 : n)) : 0.5;
  return {
    ok: true,
    value: {
      side,
      confidence,
      reason: line(obj ? str(obj.content) || str(obj.reason) : plain(raw)) || 'no reason given',
    },
  };
}

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
