import type { AppContext } from '../context';
import { resolveModel } from '../models/service';
import { BUILTIN_PROVIDER_ID } from '../providers/llm/builtin';
import type { ChatMessage, ChatRequest, ChatResult, LlmProvider, LlmRegistry } from '../providers/types';
import { readyCalculator } from '../tools/builtin';
import { runCallLoop } from '../tools/callLoop';
import type { ToolsConfig } from '../tools/config';
import type { ModelCaller } from './methods';
import { callTokens } from './tokens';

// The evaluation's one way to a model: the user's model connections (or the server's registry for a plain name),
// asking for usage, with each call's tokens counted (tokens.ts).

type Resolve = (model: string) => Promise<{ provider: LlmProvider; model: string }>;

export function registryResolver(registry: LlmRegistry): Resolve {
  return async (model) => ({
    provider: registry.resolve ? await registry.resolve(model) : registry.forModel(model),
    model,
  });
}

export function userResolver(ctx: AppContext, userId: string): Resolve {
  return async (model) =>
    (await resolveModel(ctx, userId, model)) ?? (await registryResolver(ctx.providers.llm)(model));
}

export interface CallerOptions {
  maxTokens: number;
  temperature: number;
  signal: AbortSignal;
  /** The caps of a call asked with tools (the server's TOOL_* settings); the defaults when absent. */
  tools?: Pick<ToolsConfig, 'callsPerTurn' | 'callTimeoutMs' | 'resultMaxBytes'>;
}

const TOOL_DEFAULTS = { callsPerTurn: 8, callTimeoutMs: 30_000, resultMaxBytes: 64 * 1024 };

/**
 * One question asked with the calculator (docs/evaluation.md#with-tools): the discussion's call loop, no person to
 * ask, and the tokens of every model call in it summed (the loop answers only its last call's).
 */
async function withCalculator(
  chat: (r: ChatRequest) => Promise<ChatResult>,
  request: ChatRequest,
  limits: typeof TOOL_DEFAULTS,
  signal: AbortSignal,
) {
  let prompt = 0;
  let completion = 0;
  let counted = true;
  const res = await runCallLoop({
    chat: async (r) => {
      const out = await chat(r);
      if (out.usage) {
        prompt += out.usage.promptTokens;
        completion += out.usage.completionTokens;
      } else counted = false;
      return out;
    },
    request,
    tools: [readyCalculator()],
    agentId: 'eval',
    messageId: 'eval',
    askFirst: false,
    limits,
    signal,
    emit: () => {},
    approval: async () => true,
    takeCall: () => true,
  });
  return { ...res, usage: counted ? { promptTokens: prompt, completionTokens: completion } : undefined };
}

/** Resolves every model once (a connection that is gone fails the start, not question 37) and calls them. */
export async function makeCaller(resolve: Resolve, models: string[], opts: CallerOptions): Promise<ModelCaller> {
  const resolved = new Map<string, { provider: LlmProvider; model: string }>();
  for (const m of new Set(models)) resolved.set(m, await resolve(m));
  const of = (m: string) => {
    const r = resolved.get(m);
    if (!r) throw new Error(`The model "${m}" is not part of this run`);
    return r;
  };
  return {
    usesGrammar: (m) => of(m).provider.id === BUILTIN_PROVIDER_ID,
    async call(m: string, messages: ChatMessage[], { jsonSchema, tools }) {
      const { provider, model } = of(m);
      const request: ChatRequest = {
        model,
        messages,
        maxTokens: opts.maxTokens,
        temperature: opts.temperature,
        jsonSchema,
        signal: opts.signal,
        wantUsage: true,
      };
      // A model whose provider cannot offer tools answers without them, as in a discussion.
      const result =
        tools && provider.toolCalling
          ? await withCalculator((r) => provider.chat(r), request, opts.tools ?? TOOL_DEFAULTS, opts.signal)
          : await provider.chat(request);
      return { text: result.content, ...callTokens(messages, result) };
    },
  };
}
