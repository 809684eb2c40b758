import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fromPromise } from 'xstate';
import type { ResearchResult } from '../../src/schemas/discussion';
import { storedPath } from '../audio/audioFiles';
import type { AppContext } from '../context';
import type { ChatRequest } from '../providers/types';
import { parseTurnAnswer } from './answer';
import { discussionMachine } from './discussion.machine';
import { observerOf } from './hooks';
import type { TurnRequest } from './prompt';
import type { ResearchInput, ResearchOutput, SpeakInput, SpeakOutput, ThinkOutput } from './steps';

// The real actors behind the machine's invokes: the language model, speech and research. Each receives the
// actor's abort signal, so leaving a state (stop, time-out) cancels the call in flight.

/** The research provider's shape as the engine uses it (the providers module owns the implementation). */
interface ResearchProviderLike {
  search(req: { query: string; sources: string[]; max_results: number; domain: string }, signal?: AbortSignal): Promise<{
    results: ResearchResult[];
    available?: boolean;
    errors?: Array<{ source: string; message: string }>;
  }>;
}

export function researchProviderOf(ctx: AppContext): ResearchProviderLike | null {
  const r = (ctx.providers as unknown as { research?: Partial<ResearchProviderLike> }).research;
  return r && typeof r.search === 'function' ? (r as ResearchProviderLike) : null;
}

async function chat(ctx: AppContext, request: TurnRequest, signal: AbortSignal) {
  const req: ChatRequest = { ...request, signal };
  observerOf(ctx)?.onChatRequest?.(req);
  const provider = ctx.providers.llm.resolve ? await ctx.providers.llm.resolve(req.model) : ctx.providers.llm.forModel(req.model);
  return provider.chat(req);
}

const safeName = (s: string) => s.replace(/[^A-Za-z0-9_-]/g, '_').slice(0, 120);

/** Speech is written under <mediaDir>/tts/ and served at /media/tts/<file>. */
export const ttsDir = (mediaDir: string) => path.join(mediaDir, 'tts');

async function voiceOf(ctx: AppContext, userId: string, agentId: string) {
  const [row] = await ctx.db.query<{ file_name: string; transcript: string | null }>(
    'SELECT file_name, transcript FROM audio_items WHERE agent_id = $1 AND user_id = $2 AND is_default LIMIT 1',
    [agentId, userId],
  );
  if (!row) return null;
  try {
    return { referenceAudioPath: storedPath(ctx.config.mediaDir, row.file_name), referenceText: row.transcript };
  } catch {
    return null;
  }
}

export function engineActors(ctx: AppContext, userId: string) {
  return {
    think: fromPromise<ThinkOutput, { request: TurnRequest; stage: string | null }>(async ({ input, signal }) => {
      const started = performance.now();
      const res = await chat(ctx, input.request, signal);
      const answeredAt = performance.now();
      return { answer: parseTurnAnswer(res.content, input.stage), modelMs: res.durationMs ?? answeredAt - started, answeredAt };
    }),
    summarize: fromPromise<string, { request: TurnRequest }>(async ({ input, signal }) => {
      const res = await chat(ctx, input.request, signal);
      try {
        const parsed = JSON.parse(res.content) as { content?: unknown };
        if (typeof parsed.content === 'string') return parsed.content;
      } catch {
        /* plain prose, as asked */
      }
      return res.content;
    }),
    speak: fromPromise<SpeakOutput, SpeakInput>(async ({ input, signal }) => {
      const started = performance.now();
      const voice = await voiceOf(ctx, userId, input.agentId);
      const out = await ctx.providers.speech.synthesize({ text: input.text, voice, speed: input.speed, format: input.format, signal });
      const dir = ttsDir(ctx.config.mediaDir);
      await mkdir(dir, { recursive: true });
      const file = `${safeName(input.audioId)}.${out.extension.replace(/^\./, '')}`;
      await writeFile(path.join(dir, file), out.audio);
      return { audioUrl: `/media/tts/${file}`, ttsMs: performance.now() - started };
    }),
    research: fromPromise<ResearchOutput, ResearchInput>(async ({ input, signal }) => {
      const provider = researchProviderOf(ctx);
      if (!provider) return { query: input.topic, results: [], unavailable: 'No research provider is configured.' };
      const res = await provider.search({ query: input.topic.slice(0, 500), sources: input.sources, max_results: input.maxResults, domain: input.domain }, signal);
      const found = res.results.filter((r) => (r.articles ?? r.results ?? []).length > 0);
      const unavailable = res.available === false || (!found.length && res.errors?.length)
        ? res.errors?.map((e) => `${e.source}: ${e.message}`).join('; ') || 'research services unreachable'
        : undefined;
      return { query: input.topic, results: found, unavailable };
    }),
  };
}

/** The machine with the real actors, for one user's discussion. */
export const liveDiscussionMachine = (ctx: AppContext, userId: string) => discussionMachine.provide({ actors: engineActors(ctx, userId) });
