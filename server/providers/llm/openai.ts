import { ProviderError, origin } from '../errors';
import { bearerHeaders, openaiApiBase } from '../openaiUrl';
import type { ChatRequest, ChatResult, ChatUsage, LlmProvider } from '../types';
import { createListing } from './listing';
import { postStream } from './postStream';
import { sseData } from './stream';

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
}

const SERVICE = 'The OpenAI-compatible server';

interface Chunk {
  usage?: { prompt_tokens?: number; completion_tokens?: number } | null;
  choices?: Array<{ delta?: { content?: string | null }; message?: { content?: string | null }; finish_reason?: string | null }>;
  error?: { message?: string } | string;
}

export function createOpenAiProvider(opts: OpenAiOptions): LlmProvider {
  const api = openaiApiBase(opts.baseUrl);
  const headers = bearerHeaders(opts.apiKey);
  const timeoutMs = opts.timeoutMs ?? 120_000;
  const { markReachable, bareName, ...listed } = createListing({
    provider: 'openai',
    service: SERVICE,
    prefix: 'openai:',
    kindLabel: 'OpenAI-compatible',
    url: `${api}/models`,
    headers,
    timeoutMs: opts.listTimeoutMs ?? 3_000,
    probeCacheMs: opts.probeCacheMs ?? 5_000,
    at: origin(api),
    readNames: (body) => ((body as { data?: Array<{ id?: string }> }).data ?? []).map((m) => m.id).filter((n): n is string => !!n),
  });

  return {
    id: 'openai',
    label: `OpenAI-compatible (${origin(api)})`,
    ...listed,

    async chat(req: ChatRequest): Promise<ChatResult> {
      const started = Date.now();
      const model = bareName(req.model);
      const body: Record<string, unknown> = { model, messages: req.messages, stream: true };
      if (req.maxTokens !== undefined) body.max_tokens = req.maxTokens;
      if (req.temperature !== undefined) body.temperature = req.temperature;
      if (req.wantUsage) body.stream_options = { include_usage: true };
      if (req.jsonSchema) body.response_format = { type: 'json_schema', json_schema: { name: 'turn_answer', schema: req.jsonSchema, strict: false } };
      let usage: ChatUsage | undefined;
      const noteUsage = (chunk: Chunk) => {
        const u = chunk.usage;
        if (u && typeof u.prompt_tokens === 'number' && typeof u.completion_tokens === 'number') {
          usage = { promptTokens: u.prompt_tokens, completionTokens: u.completion_tokens };
        }
      };
      const content = await postStream(
        {
          provider: 'openai',
          service: SERVICE,
          url: `${api}/chat/completions`,
          headers: { 'content-type': 'application/json', accept: 'text/event-stream', ...headers },
          body,
          timeoutMs,
          signal: req.signal,
        },
        async (res, stream) => {
          markReachable();
          // A server that ignores `stream` answers one JSON completion; take it as a single piece.
          if ((res.headers.get('content-type') ?? '').includes('application/json')) {
            const one = parseChunk(await res.text());
            noteUsage(one);
            const whole = one.choices?.[0]?.message?.content ?? '';
            if (whole) req.onToken?.(whole);
            return whole;
          }
          let content = '';
          let finished = false;
          for await (const data of sseData(stream)) {
            if (data.trim() === '[DONE]') {
              finished = true;
              break;
            }
            const chunk = parseChunk(data);
            noteUsage(chunk);
            const piece = chunk.choices?.[0]?.delta?.content ?? '';
            if (piece) {
              content += piece;
              req.onToken?.(piece);
            }
          }
          if (!finished && !content) throw new ProviderError(`${SERVICE} closed the stream without an answer`, 'openai', 'malformed');
          return content;
        },
      );
      return { content, model, provider: 'openai', durationMs: Date.now() - started, ...(usage ? { usage } : {}) };
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
