import { OFFLINE_MODEL, OFFLINE_MODEL_LABEL } from '../../../src/schemas/constants';
import type { TurnContext } from '../../engine/turnAnswer';
import { abortError } from '../errors';
import type { ChatRequest, ChatResult, LlmProvider } from '../types';
import { composeTurn } from './offlineModel/compose';
import { hash32, seededRng } from './offlineModel/seeded';
import { pickNextSpeaker, summarize } from './offlineModel/tasks';
import { salientWords } from './offlineModel/words';

// The built-in offline model. It is not a language model and never claims to be one: it composes
// short, role-aware replies from the turn's facts (req.context) so every endpoint and mode works
// with no LLM. Same input → same output; the seed is a hash of agent, topic, turn and history.

export const OFFLINE_PROVIDER_ID = 'offline';

export interface OfflineOptions {
  /** Pretend latency per streamed piece (ms), for demos and for testing stop-mid-call. Default 0. */
  pieceDelayMs?: number;
}

export function createOfflineProvider(opts: OfflineOptions = {}): LlmProvider {
  return {
    id: OFFLINE_PROVIDER_ID,
    label: OFFLINE_MODEL_LABEL,
    owns: (model) => model === OFFLINE_MODEL,
    listModels: async () => [{ name: OFFLINE_MODEL, provider: OFFLINE_PROVIDER_ID, label: OFFLINE_MODEL_LABEL, offline: true }],
    probe: async () => ({ status: 'ok', provider: OFFLINE_PROVIDER_ID, detail: OFFLINE_MODEL_LABEL }),
    async chat(req: ChatRequest): Promise<ChatResult> {
      const started = Date.now();
      if (req.signal?.aborted) throw abortError(OFFLINE_PROVIDER_ID, req.signal);
      const content = offlineAnswer(req);
      await stream(content, req, opts.pieceDelayMs ?? 0);
      return { content, model: OFFLINE_MODEL, provider: OFFLINE_PROVIDER_ID, durationMs: Date.now() - started };
    },
  };
}

/** The answer text: TurnAnswer JSON when a schema is asked for, plain text otherwise. */
export function offlineAnswer(req: ChatRequest): string {
  const ctx = req.context ?? contextFromMessages(req);
  const task = ctx.task ?? 'turn';
  const seed = hash32(
    [ctx.agent.id, ctx.agent.name, ctx.topic, ctx.turn, ctx.round ?? '', ctx.stage ?? '', task, ctx.mode ?? '',
      ...ctx.history.map((h) => `${h.speaker}:${h.stance ?? ''}:${h.content}`)].join('|'),
  );
  const rng = seededRng(seed);
  // A token is roughly three quarters of a word; the engine's word limit wins when it is tighter.
  const fromTokens = req.maxTokens ? Math.floor(req.maxTokens * 0.75) : Infinity;
  const maxWords = Math.max(6, Math.min(ctx.maxWords ?? 90, fromTokens, 400));
  const answer =
    task === 'pick_next_speaker' ? pickNextSpeaker(ctx, rng)
    : task === 'summary' ? summarize(ctx, Math.max(maxWords, 40))
    : composeTurn(ctx, rng, maxWords, req.temperature);
  if (req.jsonSchema) return JSON.stringify(answer);
  return task === 'pick_next_speaker' ? (answer.next_speaker ?? answer.content) : answer.content;
}

/** Without structured facts (a plain chat call), the system prompt is the persona and the last user message the topic. */
function contextFromMessages(req: ChatRequest): TurnContext {
  const system = req.messages.find((m) => m.role === 'system')?.content ?? '';
  const users = req.messages.filter((m) => m.role === 'user');
  const topic = users[users.length - 1]?.content ?? system ?? 'the question at hand';
  const role = salientWords(system, 2).join(' ') || 'assistant';
  return {
    agent: { id: 'assistant', name: 'Assistant', role, prompt: system },
    others: [],
    topic,
    turn: users.length,
    history: [],
  };
}

async function stream(content: string, req: ChatRequest, delayMs: number) {
  if (!req.onToken && !delayMs) return;
  // A few pieces, split at spaces, so streaming consumers see real increments.
  const pieces: string[] = [];
  const size = Math.max(1, Math.ceil(content.length / 4));
  for (let i = 0; i < content.length; ) {
    let end = Math.min(content.length, i + size);
    const space = content.indexOf(' ', end);
    end = space === -1 || space - end > 20 ? end : space + 1;
    pieces.push(content.slice(i, end));
    i = end;
  }
  for (const piece of pieces) {
    if (delayMs) await sleep(delayMs, req.signal);
    else await Promise.resolve();
    if (req.signal?.aborted) throw abortError(OFFLINE_PROVIDER_ID, req.signal);
    req.onToken?.(piece);
  }
}

function sleep(ms: number, signal?: AbortSignal) {
  return new Promise<void>((resolve, reject) => {
    if (signal?.aborted) return reject(abortError(OFFLINE_PROVIDER_ID, signal));
    const t = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(t);
      reject(abortError(OFFLINE_PROVIDER_ID, signal));
    };
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
