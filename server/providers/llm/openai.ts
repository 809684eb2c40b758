import type { FetchLike } from '../../models/guardedFetch';
import { readCapped } from '../boundedBody';
import { ProviderError, origin, withoutKey } from '../errors';
import { maskSecrets } from '../mask';
import { bearerHeaders, openaiApiBase } from '../openaiUrl';
import type { ChatRequest, ChatResult, ChatUsage, LlmProvider } from '../types';
import { DEFAULT_REPLY_LIMITS, replyCap, replyCollector, type ListLimits, type ReplyLimits } from './limits';
import { createListing } from './listing';
import { postStream } from './postStream';
import { sseData } from './stream';
import { openaiMessages, StreamedCalls, toolsBody } from './toolWire';

// Any OpenAI-compatible server (OpenAI, vLLM, llama.cpp server, LM Studio, LiteLLM…): models from
// GET /v1/models, chat from POST /v1/chat/completions streamed as server-sent events, structured
// output with response_format json_schema (strict false: servers differ in what strict accepts).

export interface OpenAiOptions {
  baseUrl: string;
  apiKey?: string;
  /** Whole chat call. Default 120 s. */
  timeoutMs?: number;
  /** Listing and probing. Default 3 s (hosted servers are further away than a local Ollama). */
  listTimeoutMs?: number;
  probeCacheMs?: number;
  /** A user's connection: the address rule's fetch (models/guardedFetch.ts). */
  fetch?: FetchLike;
  limits?: ReplyLimits;
  listLimits?: ListLimits;
}

const SERVICE = 'The OpenAI-compatible server';

interface Chunk {
  usage?: { prompt_tokens?: number; completion_tokens?: number } | null;
  choices?: Array<{
    delta?: { content?: string | null; tool_calls?: unknown };
    message?: { content?: string | null; tool_calls?: unknown };
    finish_reason?: string | null;
  }>;
  error?: { message?: string } | string;
}

export function createOpenAiProvider(opts: OpenAiOptions): LlmProvider {
  const api = openaiApiBase(opts.baseUrl);
  const headers = bearerHeaders(opts.apiKey);
  const timeoutMs = opts.timeoutMs ?? 120_000;
  const limits = opts.limits ?? DEFAULT_REPLY_LIMITS;
  // A server may quote the key it was sent; no error of this provider carries it on.
  const masked = <T>(p: Promise<T>) => p.catch((e: unknown) => Promise.reject(withoutKey(e, opts.apiKey)));
  const { markReachable, bareName, ...listing } = createListing({
    provider: 'openai',
    service: SERVICE,
    prefix: 'openai:',
    kindLabel: 'OpenAI-compatible',
    url: `${api}/models`,
    headers,
    timeoutMs: opts.listTimeoutMs ?? 3_000,
    probeCacheMs: opts.probeCacheMs ?? 5_000,
    at: origin(api),
    fetch: opts.fetch,
    limits: opts.listLimits,
    readNames: (body) =>
      ((body as { data?: Array<{ id?: string }> }).data ?? []).map((m) => m.id).filter((n): n is string => !!n),
  });

  return {
    id: 'openai',
    label: `OpenAI-compatible (${origin(api)})`,
    toolCalling: true,
    ...listing,
    listModels: () => masked(listing.listModels()),
    probe: () =>
      listing.probe().then((st) => (st.detail ? { ...st, detail: maskSecrets(st.detail, [opts.apiKey]) } : st)),

    async chat(req: ChatRequest): Promise<ChatResult> {
      const started = Date.now();
      const model = bareName(req.model);
      const body: Record<string, unknown> = {
        model,
        messages: openaiMessages(req.messages),
        stream: true,
        ...toolsBody(req.tools),
      };
      const calls = new StreamedCalls();
      if (req.maxTokens !== undefined) body.max_tokens = req.maxTokens;
      if (req.temperature !== undefined) body.temperature = req.temperature;
      if (req.wantUsage) body.stream_options = { include_usage: true };
      if (req.jsonSchema)
        body.response_format = {
          type: 'json_schema',
          json_schema: { name: 'turn_answer', schema: req.jsonSchema, strict: false },
        };
      const reply = replyCollector(SERVICE, 'openai', replyCap(limits, req.maxTokens), req.onToken);
      let usage: ChatUsage | undefined;
      const noteUsage = (chunk: Chunk) => {
        const u = chunk.usage;
        if (u && typeof u.prompt_tokens === 'number' && typeof u.completion_tokens === 'number') {
          usage = { promptTokens: u.prompt_tokens, completionTokens: u.completion_tokens };
        }
      };
      const content = await masked(
        postStream(
          {
            provider: 'openai',
            service: SERVICE,
            url: `${api}/chat/completions`,
            headers: { 'content-type': 'application/json', accept: 'text/event-stream', ...headers },
            body,
            timeoutMs,
            signal: req.signal,
            fetch: opts.fetch,
          },
          async (res, stream) => {
            markReachable();
            // A server that ignores `stream` answers one JSON completion; take it as a single piece.
            if ((res.headers.get('content-type') ?? '').includes('application/json')) {
              const one = parseChunk(await readCapped(res, limits.maxLineBytes));
              noteUsage(one);
              const whole = one.choices?.[0]?.message?.content ?? '';
              calls.add(one.choices?.[0]?.message?.tool_calls);
              if (whole) reply.add(whole);
              return reply.text;
            }
            let finished = false;
            for await (const data of sseData(stream, limits.maxLineBytes)) {
              if (data.trim() === '[DONE]') {
                finished = true;
                break;
              }
              const chunk = parseChunk(data);
              noteUsage(chunk);
              const piece = chunk.choices?.[0]?.delta?.content ?? '';
              if (piece) reply.add(piece);
              calls.add(chunk.choices?.[0]?.delta?.tool_calls);
            }
            if (!finished && !reply.text && !calls.calls('').length)
              throw new ProviderError(`${SERVICE} closed the stream without an answer`, 'openai', 'malformed');
            return reply.text;
          },
        ),
      );
      const toolCalls = calls.calls(`call_${started}_`);
      return {
        content,
        model,
        provider: 'openai',
        durationMs: Date.now() - started,
        ...(usage ? { usage } : {}),
        ...(toolCalls.length ? { toolCalls } : {}),
      };
    },
  };
}

function parseChunk(data: string): Chunk {
  let chunk: Chunk;
  try {
    chunk = JSON.parse(data) as Chunk;
  } catch {
    throw new ProviderError(`${SERVICE} sent an unreadable stream event: ${data.slice(0, 80)}`, 'openai', 'malformed');
  }
  if (chunk.error) {
    const why = typeof chunk.error === 'string' ? chunk.error : (chunk.error.message ?? 'unknown error');
    throw new ProviderError(`${SERVICE} failed while answering: ${why}`, 'openai', 'failed');
  }
  return chunk;
}
