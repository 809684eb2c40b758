import { OFFLINE_MODEL, OFFLINE_MODEL_LABEL } from '../../../src/schemas/constants';
import type { TurnContext } from '../../engine/turnAnswer';
import { abortError } from '../errors';
import type { ChatRequest, ChatResult, LlmProvider } from '../types';
import { composeTurn } from './offlineModel/compose';
import { formatAnswer, sideStance } from './offlineModel/formatAnswers';
import { offlinePosition } from './offlineModel/position';
import { loadTagger } from './offlineModel/tagging';
import { hash32, seededRng } from './offlineModel/seeded';
import { pickNextSpeaker, summarize } from './offlineModel/tasks';
import { salientWords } from './offlineModel/words';
import { offlineToolCall, offlineToolNote } from './offlineModel/tools';

// The built-in offline model. It is not a language model and never claims to be one: it composes
// short, role-aware replies from the turn's facts (req.context) so every endpoint and mode works
// with no LLM. Same input → same output; the seed is a hash of agent, topic, turn and history.
// It streams like a real model: a short seeded 'thinking' pause, then its reply word by word at
// `tokensPerSecond` (OFFLINE_MODEL_TOKENS_PER_SECOND for the server, about 30 by default so a
// discussion unfolds at a human pace; 0 is instant, as the test suite uses).

export const OFFLINE_PROVIDER_ID = 'offline';

export interface OfflineOptions {
  /** Pace of the streamed reply, in word-sized tokens per second. Default 0: instant. */
  tokensPerSecond?: number;
  /** Longest 'thinking' pause before the first token (ms; the seed picks 40–100 % of it). Default 1200 when paced, else 0. */
  thinkMs?: number;
}

export function createOfflineProvider(opts: OfflineOptions = {}): LlmProvider {
  return {
    id: OFFLINE_PROVIDER_ID,
    label: OFFLINE_MODEL_LABEL,
    toolCalling: true,
    owns: (model) => model === OFFLINE_MODEL,
    listModels: async () => [
      { name: OFFLINE_MODEL, provider: OFFLINE_PROVIDER_ID, label: OFFLINE_MODEL_LABEL, offline: true },
    ],
    probe: async () => ({ status: 'ok', provider: OFFLINE_PROVIDER_ID, detail: OFFLINE_MODEL_LABEL }),
    // The tagger (compromise) takes half a second or more to load and holds the process while it does.
    warm: loadTagger,
    async chat(req: ChatRequest): Promise<ChatResult> {
      const started = Date.now();
      if (req.signal?.aborted) throw abortError(OFFLINE_PROVIDER_ID, req.signal);
      await loadTagger();
      const call = req.context ? offlineToolCall(req, req.context) : null;
      if (call)
        return {
          content: '',
          model: OFFLINE_MODEL,
          provider: OFFLINE_PROVIDER_ID,
          durationMs: Date.now() - started,
          toolCalls: [call],
        };
      const content = offlineAnswer(req);
      const tps = Math.max(0, opts.tokensPerSecond ?? 0);
      const thinkMs = opts.thinkMs ?? (tps > 0 ? 1200 : 0);
      if (thinkMs > 0) await sleep(Math.round(thinkMs * (0.4 + 0.6 * seededRng(hash32(content)).next())), req.signal);
      await stream(content, req, tps > 0 ? 1000 / tps : 0);
      return { content, model: OFFLINE_MODEL, provider: OFFLINE_PROVIDER_ID, durationMs: Date.now() - started };
    },
  };
}

/** The answer text: TurnAnswer JSON when a schema is asked for, plain text otherwise. */
export function offlineAnswer(req: ChatRequest): string {
  const ctx = req.context ?? contextFromMessages(req);
  const task = ctx.task ?? 'turn';
  const seed = hash32(
    [
      ctx.agent.id,
      ctx.agent.name,
      ctx.topic,
      ctx.turn,
      ctx.round ?? '',
      ctx.stage ?? '',
      task,
      ctx.mode ?? '',
      ...ctx.history.map((h) => `${h.speaker}:${h.stance ?? ''}:${h.content}`),
    ].join('|'),
  );
  const rng = seededRng(seed);
  // A token is roughly three quarters of a word; the engine's word limit wins when it is tighter.
  const fromTokens = req.maxTokens ? Math.floor(req.maxTokens * 0.75) : Infinity;
  const maxWords = Math.max(6, Math.min(ctx.maxWords ?? 90, fromTokens, 400));
  const choice = formatAnswer(ctx, rng);
  if (choice) return JSON.stringify(choice);
  const composed =
    task === 'pick_next_speaker'
      ? pickNextSpeaker(ctx, rng)
      : task === 'summary'
        ? summarize(ctx, Math.max(maxWords, 40))
        : composeTurn(ctx, rng, maxWords, req.temperature);
  const stance = sideStance(ctx);
  const note = task === 'turn' ? offlineToolNote(req) : null;
  const said = note ? { ...composed, content: `${note} ${composed.content}` } : composed;
  const answer = stance ? { ...said, stance } : said;
  if (req.jsonSchema) return JSON.stringify(task === 'turn' ? { ...answer, ...offlinePosition(ctx, answer) } : answer);
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

/** Word-sized tokens (a word and the space after it), at one per `delayMs`, or all at once in a few ticks. */
async function stream(content: string, req: ChatRequest, delayMs: number) {
  if (!req.onToken && !delayMs) return;
  const tokens = content.match(/\s*\S+\s*/g) ?? [content];
  for (let i = 0; i < tokens.length; i++) {
    if (delayMs) await sleep(delayMs, req.signal);
    else if (i % 16 === 0) await Promise.resolve();
    if (req.signal?.aborted) throw abortError(OFFLINE_PROVIDER_ID, req.signal);
    req.onToken?.(tokens[i]);
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
