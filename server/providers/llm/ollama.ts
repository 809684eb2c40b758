import type { FetchLike } from '../../models/guardedFetch';
import { ProviderError, origin } from '../errors';
import type { ChatRequest, ChatResult, ChatUsage, LlmProvider, ToolCallRequest } from '../types';
import { DEFAULT_REPLY_LIMITS, replyCap, replyCollector, type ListLimits, type ReplyLimits } from './limits';
import { createListing } from './listing';
import { postStream } from './postStream';
import { lines } from './stream';
import { argumentsOf, ollamaMessages, toolsBody } from './toolWire';

// Ollama (https://github.com/ollama/ollama/blob/main/docs/api.md): models from GET /api/tags, chat
// from POST /api/chat streamed as NDJSON, structured output by passing the JSON Schema as `format`.

export interface OllamaOptions {
  host: string;
  /** Whole chat call, first byte to last (a local model on a CPU can be slow). Default 120 s. */
  timeoutMs?: number;
  /** Listing and probing; short, so an absent Ollama costs little. Default 1.5 s. */
  listTimeoutMs?: number;
  /** How long a probe result is reused. Default 5 s. */
  probeCacheMs?: number;
  /** A user's connection: the address rule's fetch (models/guardedFetch.ts). */
  fetch?: FetchLike;
  limits?: ReplyLimits;
  listLimits?: ListLimits;
}

const SERVICE = 'Ollama';

export function createOllamaProvider(opts: OllamaOptions): LlmProvider {
  const host = opts.host.replace(/\/+$/, '');
  const timeoutMs = opts.timeoutMs ?? 120_000;
  const limits = opts.limits ?? DEFAULT_REPLY_LIMITS;
  const { markReachable, bareName, ...listed } = createListing({
    provider: 'ollama',
    service: SERVICE,
    prefix: 'ollama:',
    kindLabel: 'Ollama',
    url: `${host}/api/tags`,
    timeoutMs: opts.listTimeoutMs ?? 1_500,
    probeCacheMs: opts.probeCacheMs ?? 5_000,
    at: origin(host),
    fetch: opts.fetch,
    limits: opts.listLimits,
    readNames: (body) =>
      ((body as { models?: Array<{ name?: string; model?: string }> }).models ?? [])
        .map((m) => m.name ?? m.model)
        .filter((n): n is string => !!n),
  });

  return {
    id: 'ollama',
    label: `Ollama (${origin(host)})`,
    toolCalling: true,
    ...listed,

    async chat(req: ChatRequest): Promise<ChatResult> {
      const started = Date.now();
      const model = bareName(req.model);
      const options: Record<string, number> = {};
      if (req.maxTokens !== undefined) options.num_predict = req.maxTokens;
      if (req.temperature !== undefined) options.temperature = req.temperature;
      const body = {
        model,
        messages: ollamaMessages(req.messages),
        stream: true,
        options,
        ...toolsBody(req.tools),
        ...(req.jsonSchema ? { format: req.jsonSchema } : {}),
      };
      const reply = replyCollector(SERVICE, 'ollama', replyCap(limits, req.maxTokens), req.onToken);
      let usage: ChatUsage | undefined;
      const toolCalls: ToolCallRequest[] = [];
      const content = await postStream(
        {
          provider: 'ollama',
          service: SERVICE,
          url: `${host}/api/chat`,
          headers: { 'content-type': 'application/json' },
          body,
          timeoutMs,
          signal: req.signal,
          fetch: opts.fetch,
        },
        async (_res, stream) => {
          markReachable();
          for await (const line of lines(stream, limits.maxLineBytes)) {
            if (!line.trim()) continue;
            let chunk: {
              message?: {
                content?: string;
                tool_calls?: Array<{ id?: string; function?: { name?: string; arguments?: unknown } }>;
              };
              done?: boolean;
              error?: string;
              prompt_eval_count?: number;
              eval_count?: number;
            };
            try {
              chunk = JSON.parse(line);
            } catch {
              throw new ProviderError(
                `${SERVICE} sent an unreadable stream line: ${line.slice(0, 80)}`,
                'ollama',
                'malformed',
              );
            }
            if (chunk.error)
              throw new ProviderError(`${SERVICE} failed while answering: ${chunk.error}`, 'ollama', 'failed');
            const piece = chunk.message?.content ?? '';
            if (piece) reply.add(piece);
            // Ollama sends each call whole, in the message of one line (arguments as an object, an id or none).
            for (const c of chunk.message?.tool_calls ?? []) {
              if (toolCalls.length >= 16 || typeof c.function?.name !== 'string') continue;
              toolCalls.push({
                id: c.id?.slice(0, 200) || `call_${started}_${toolCalls.length}`,
                name: c.function.name.slice(0, 200),
                arguments: argumentsOf(c.function.arguments),
              });
            }
            if (chunk.done) {
              // The last line carries Ollama's own counts (prompt_eval_count is absent when the prompt was cached).
              if (typeof chunk.eval_count === 'number')
                usage = { promptTokens: chunk.prompt_eval_count ?? 0, completionTokens: chunk.eval_count };
              return reply.text;
            }
          }
          throw new ProviderError(`${SERVICE} closed the answer before it was complete`, 'ollama', 'malformed');
        },
      );
      return {
        content,
        model,
        provider: 'ollama',
        durationMs: Date.now() - started,
        ...(usage ? { usage } : {}),
        ...(toolCalls.length ? { toolCalls } : {}),
      };
    },
  };
}
