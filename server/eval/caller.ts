import type { AppContext } from '../context';
import { resolveModel } from '../models/service';
import { BUILTIN_PROVIDER_ID } from '../providers/llm/builtin';
import type { ChatMessage, LlmProvider, LlmRegistry } from '../providers/types';
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
    async call(m: string, messages: ChatMessage[], { jsonSchema }) {
      const { provider, model } = of(m);
      const result = await provider.chat({
        model,
        messages,
        maxTokens: opts.maxTokens,
        temperature: opts.temperature,
        jsonSchema,
        signal: opts.signal,
        wantUsage: true,
      });
      return { text: result.content, ...callTokens(messages, result) };
    },
  };
}
