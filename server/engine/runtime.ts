import { fromPromise } from 'xstate';
import type { AppContext } from '../context';
import { resolveModel } from '../models/service';
import { allPapers } from '../providers/research';
import { speakAsAgent, ttsBytesOf } from '../providers/speech/speak';
import { agentSpeech } from '../voices/agentVoice';
import { espeakFallback } from '../voices/fallback';
import { ENGINE_MESSAGES } from '../../src/schemas/messages';
import { incident, type IncidentLog } from '../http/incident';
import { isAbortError, ProviderError } from '../providers/errors';
import type { ChatRequest, LlmProvider, ResearchService } from '../providers/types';
import { runCallLoop } from '../tools/callLoop';
import { readyToolsFor } from '../tools/service';
import { takeCallSlot } from '../tools/state';
import { waitForApproval } from '../tools/approvals';
import { parseTurnAnswer, UnusableAnswerError } from './answer';
import { bothMeters, metered, UsageTally, type UsageMeter } from './usage';
import { choiceStandIn, isChoiceRequest } from './formats/choice';
import { discussionMachine } from './discussion.machine';
import { observerOf, tuningOf } from './hooks';
import type { ResearchInput, ResearchOutput, SpeakInput, SpeakOutput, ThinkInput, TurnTools } from './context';
import type { EngineFrame } from './frames';
import type { TurnRequest } from './prompt';
import { streamingThink } from './thinking';
import type { GivenPassage } from '../sources/citations';
import { passagesForTurn, whereOf, withPassagesBlock } from '../sources/turnPassages';

// The real actors behind the machine's invokes: the language model, speech and research. Each receives the
// actor's abort signal, so leaving a state (stop, time-out) cancels the call in flight. The model's reply is
// streamed: every piece the provider reads (Ollama NDJSON, OpenAI SSE, the offline model) goes to the think
// actor (thinking.ts), which shows the readable text as it comes; the structure is parsed once, at the end.

/** The research service, when this server has one switched on. */
export const researchOf = (ctx: AppContext): ResearchService | null =>
  ctx.providers.research?.enabled ? ctx.providers.research : null;

/** The provider that serves a model id, and the name it knows the model by. */
async function providerOf(
  ctx: AppContext,
  userId: string,
  model: string,
  meter: UsageMeter,
): Promise<{ provider: LlmProvider; model: string }> {
  // A model id that names a connection ('@<connection>/<model>') is the owner's; a plain name is the server's.
  const viaConnection = await resolveModel(ctx, userId, model);
  const found = viaConnection ?? {
    provider: ctx.providers.llm.resolve ? await ctx.providers.llm.resolve(model) : ctx.providers.llm.forModel(model),
    model,
  };
  return { ...found, provider: metered(found.provider, meter) };
}

async function chat(
  ctx: AppContext,
  userId: string,
  request: TurnRequest,
  signal: AbortSignal,
  onToken: ((piece: string) => void) | undefined,
  meter: UsageMeter,
) {
  const { retrieval: _retrieval, ...call } = request;
  const req: ChatRequest = { ...call, signal, ...(onToken ? { onToken } : {}) };
  observerOf(ctx)?.onChatRequest?.(req);
  const { provider, model } = await providerOf(ctx, userId, req.model, meter);
  return provider.chat({ ...req, model });
}

/** The user's speech quota is reached: said once as a tts_error, then the discussion is no longer spoken. */
class SpeechQuotaReached extends Error {
  readonly stopsSpeech = true;
}

/**
 * A provider's own error is worded for the user (providers/errors.ts) and goes through; anything else (a database
 * error, a bug) is logged in full and reaches the client as a short sentence with a reference.
 */
const publicError =
  (log: IncidentLog, what: string, userId: string) =>
  (err: unknown): never => {
    if (
      err instanceof ProviderError ||
      err instanceof UnusableAnswerError ||
      err instanceof SpeechQuotaReached ||
      isAbortError(err)
    )
      throw err;
    throw new Error(incident(log, err, what, { user: userId }));
  };

/** Where the engine writes what a reader is not shown: incidents in full, and a failed search's raw errors. */
export type EngineLog = IncidentLog & { warn?(obj: object, msg: string): void };

const consoleLog: EngineLog = { error: (obj, msg) => console.error(msg, obj) };

export function engineActors(ctx: AppContext, userId: string, log: EngineLog = consoleLog, meter?: UsageMeter) {
  /** Agents whose model was said to be unable to call tools (said once per discussion). */
  const toolsUnsupportedSaid = new Set<string>();
  return {
    think: streamingThink(
      async (input, { signal, write, emit }) => {
        try {
          return await thinkOnce(input, signal, write, emit);
        } catch (err) {
          return publicError(log, 'The model call failed because of a server error', userId)(err);
        }
      },
      () => tuningOf(ctx).coalesceMs,
    ),
    // The summary streams like a turn; it is asked for in prose, and parseTurnAnswer reads prose or JSON alike.
    summarize: streamingThink(
      async (input, { signal, write }) => {
        const started = performance.now();
        const spent = new UsageTally();
        const res = await chat(ctx, userId, input.request, signal, write, bothMeters(meter, spent.meter)).catch(
          publicError(log, 'The summary failed because of a server error', userId),
        );
        const answeredAt = performance.now();
        return {
          answer: parseTurnAnswer(res.content, null),
          modelMs: res.durationMs ?? answeredAt - started,
          answeredAt,
          ...(spent.sum ? { usage: spent.sum } : {}),
        };
      },
      () => tuningOf(ctx).coalesceMs,
    ),
    speak: fromPromise<SpeakOutput, SpeakInput>(async ({ input, signal }) => {
      const quotaMb = ctx.config.ttsQuotaMb;
      if (quotaMb > 0) {
        const used = await ttsBytesOf(ctx.db, userId, ctx.config.ttsRetentionHours).catch(
          publicError(log, 'Speech failed because of a server error', userId),
        );
        if (used >= quotaMb * 1024 * 1024) throw new SpeechQuotaReached(ENGINE_MESSAGES.speechQuotaReached(quotaMb));
      }
      const clip = await speakAsAgent(
        {
          db: ctx.db,
          mediaDir: ctx.config.mediaDir,
          speech: ctx.providers.speech,
          voiceOf: (u, a) => agentSpeech(ctx, u, a),
          fallback: espeakFallback(ctx),
        },
        { userId, agentId: input.agentId, text: input.text, speed: input.speed, format: input.format, signal },
      ).catch(publicError(log, 'Speech failed because of a server error', userId));
      return {
        audioUrl: clip.audio_url,
        ttsMs: clip.durationMs,
        ...(clip.voiceError ? { voiceError: clip.voiceError } : {}),
      };
    }),
    research: fromPromise<ResearchOutput, ResearchInput>(async ({ input, signal }) => {
      const service = researchOf(ctx);
      if (!service) return { query: input.topic, results: [], unavailable: 'Research is switched off on this server.' };
      const query = input.topic.slice(0, 500);
      const out = await service
        .search({ query, sources: input.sources, maxResults: input.maxResults, domain: input.domain }, signal)
        .catch(publicError(log, 'Research failed because of a server error', userId));
      if (!out.available) {
        // The reader gets one plain sentence (out.detail); the raw errors, addresses and codes go to the log.
        log.warn?.({ research: out.errors }, 'paper search failed');
        return { query, results: [], unavailable: out.detail ?? 'No research service answered.' };
      }
      return { query, results: allPapers(out).length ? out.results.filter((r) => (r.results ?? []).length) : [] };
    }),
  };

  async function thinkOnce(
    input: ThinkInput,
    signal: AbortSignal,
    write: (piece: string) => void,
    emit: (frame: EngineFrame) => void,
  ) {
    const started = performance.now();
    const { request, given } = await withPassages(input.request);
    // The turn's calls (its answer, its tool rounds) are counted for its frame and for whoever else listens.
    const spent = new UsageTally();
    const counted = bothMeters(meter, spent.meter);
    const res = input.tools
      ? await chatWithTools(request, input.tools, signal, write, emit, counted)
      : await chat(ctx, userId, request, signal, write, counted);
    // A format's choice (a pick, a ranking, a vote) is read from the raw reply by the format, which asks again
    // once when it cannot; the turn answer read here is only a stand-in.
    const answer = isChoiceRequest(input.request)
      ? choiceStandIn(res.content)
      : parseTurnAnswer(res.content, input.stage);
    const answeredAt = performance.now();
    observerOf(ctx)?.onModelCall?.(answeredAt - started);
    return {
      answer,
      raw: res.content,
      modelMs: res.durationMs ?? answeredAt - started,
      answeredAt,
      ...(given.length ? { passages: given } : {}),
      ...(spent.sum ? { usage: spent.sum } : {}),
    };
  }

  /**
   * A turn whose agent has tools (docs/tools.md#the-call-loop): its model is offered them in its provider's own
   * format, each call goes through the call loop; a provider that cannot offer tools answers without them, and the
   * panel is told once per agent.
   */
  async function chatWithTools(
    request: TurnRequest,
    turn: TurnTools,
    signal: AbortSignal,
    write: (piece: string) => void,
    emit: (frame: EngineFrame) => void,
    counted: UsageMeter,
  ) {
    const { retrieval: _retrieval, ...call } = request;
    const req: ChatRequest = { ...call, signal, onToken: write };
    const { provider, model } = await providerOf(ctx, userId, req.model, counted);
    const tools = await readyToolsFor(ctx, userId, turn.ids, { sourceIds: turn.sourceIds });
    const unsupported = () => {
      if (toolsUnsupportedSaid.has(turn.agentId)) return;
      toolsUnsupportedSaid.add(turn.agentId);
      emit({
        type: 'system',
        about: 'tools_unsupported',
        agent_id: turn.agentId,
        message_id: turn.messageId,
        content: `${turn.agentName}'s model (${provider.label}) cannot call tools here; it answers without them.`,
      });
    };
    if (!tools.length || !provider.toolCalling) {
      if (tools.length) unsupported();
      observerOf(ctx)?.onChatRequest?.(req);
      return provider.chat({ ...req, model });
    }
    const cfg = ctx.config.tools;
    return runCallLoop({
      chat: (r) => {
        observerOf(ctx)?.onChatRequest?.(r);
        return provider.chat({ ...r, model });
      },
      request: req,
      tools,
      agentId: turn.agentId,
      messageId: turn.messageId,
      askFirst: turn.askFirst,
      limits: { callsPerTurn: cfg.callsPerTurn, callTimeoutMs: cfg.callTimeoutMs, resultMaxBytes: cfg.resultMaxBytes },
      signal,
      emit,
      approval: (id, s) => waitForApproval(ctx.tools, userId, id, s),
      takeCall: () => takeCallSlot(ctx.tools, userId, cfg.callsPerMinute),
      unsupported,
    });
  }

  /** The turn's request with the passages of the person's sources it reads (none when it reads none). */
  async function withPassages(request: TurnRequest): Promise<{ request: TurnRequest; given: GivenPassage[] }> {
    if (!request.retrieval) return { request, given: [] };
    const given = await passagesForTurn(ctx.db, ctx.config.sources, userId, request.retrieval);
    if (!given.length) return { request, given };
    const context = request.context
      ? {
          ...request.context,
          passages: given.map((p) => ({ label: p.label, where: whereOf(p), text: p.text })),
        }
      : undefined;
    return {
      request: { ...request, messages: withPassagesBlock(request.messages, given), ...(context ? { context } : {}) },
      given,
    };
  }
}

/** The machine with the real actors, for one user's discussion. */
export const liveDiscussionMachine = (ctx: AppContext, userId: string, log?: EngineLog, meter?: UsageMeter) =>
  discussionMachine.provide({ actors: engineActors(ctx, userId, log, meter) });
