import { ProviderError, callSignal, httpError, networkError, origin } from '../errors';
import { bearerHeaders, openaiApiBase } from '../openaiUrl';
import type { ChatRequest, ChatResult, ComponentStatus, LlmProvider, ModelInfo } from '../types';
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

const PREFIX = 'openai:';
const SERVICE = 'The OpenAI-compatible server';

interface Chunk {
  choices?: Array<{ delta?: { content?: string | null }; message?: { content?: string | null }; finish_reason?: string | null }>;
  error?: { message?: string } | string;
}

export function createOpenAiProvider(opts: OpenAiOptions): LlmProvider {
  const api = openaiApiBase(opts.baseUrl);
  const headers = bearerHeaders(opts.apiKey);
  const timeoutMs = opts.timeoutMs ?? 120_000;
  const listTimeoutMs = opts.listTimeoutMs ?? 3_000;
  const probeCacheMs = opts.probeCacheMs ?? 5_000;
  let listed = new Set<string>();
  let reachable = false;
  let probed: { at: number; value: Promise<ComponentStatus> } | null = null;

  async function models(): Promise<string[]> {
    const url = `${api}/models`;
    const call = callSignal(listTimeoutMs);
    try {
      const res = await fetch(url, { headers, signal: call.signal });
      if (!res.ok) throw await httpError(res, 'openai', SERVICE);
      const body = (await res.json()) as { data?: Array<{ id?: string }> };
      const names = (body.data ?? []).map((m) => m.id).filter((n): n is string => !!n);
      listed = new Set(names);
      reachable = true;
      return names;
    } catch (e) {
      reachable = false;
      throw networkError(e, { provider: 'openai', service: SERVICE, url, timeoutMs: listTimeoutMs, call });
    }
  }

  return {
    id: 'openai',
    label: `OpenAI-compatible (${origin(api)})`,
    owns: (model) => listed.has(model) || model.startsWith(PREFIX),
    reachable: () => reachable,

    async listModels(): Promise<ModelInfo[]> {
      try {
        return (await models()).map((name) => ({ name, provider: 'openai', label: `${name} (OpenAI-compatible)` }));
      } catch {
        return [];
      }
    },

    probe() {
      const now = Date.now();
      if (!probed || now - probed.at > probeCacheMs) {
        probed = {
          at: now,
          value: models().then(
            (names): ComponentStatus => ({ status: 'ok', provider: 'openai', detail: `${names.length} model${names.length === 1 ? '' : 's'} at ${origin(api)}` }),
            (e): ComponentStatus => ({ status: 'unavailable', provider: 'openai', detail: (e as Error).message }),
          ),
        };
      }
      return probed.value;
    },

    async chat(req: ChatRequest): Promise<ChatResult> {
      const started = Date.now();
      const model = req.model.startsWith(PREFIX) ? req.model.slice(PREFIX.length) : req.model;
      const url = `${api}/chat/completions`;
      const call = callSignal(timeoutMs, req.signal);
      const body: Record<string, unknown> = { model, messages: req.messages, stream: true };
      if (req.maxTokens !== undefined) body.max_tokens = req.maxTokens;
      if (req.temperature !== undefined) body.temperature = req.temperature;
      if (req.jsonSchema) body.response_format = { type: 'json_schema', json_schema: { name: 'turn_answer', schema: req.jsonSchema, strict: false } };
      let content = '';
      try {
        const res = await fetch(url, {
          method: 'POST',
          headers: { 'content-type': 'application/json', accept: 'text/event-stream', ...headers },
          body: JSON.stringify(body),
          signal: call.signal,
        });
        if (!res.ok) throw await httpError(res, 'openai', SERVICE);
        if (!res.body) throw new ProviderError(`${SERVICE} sent an empty answer`, 'openai', 'malformed');
        reachable = true;
        // A server that ignores `stream` answers one JSON completion; take it as a single piece.
        if ((res.headers.get('content-type') ?? '').includes('application/json')) {
          const whole = parseChunk(await res.text());
          content = whole.choices?.[0]?.message?.content ?? '';
          if (content) req.onToken?.(content);
        } else {
          let finished = false;
          for await (const data of sseData(res.body)) {
            if (data.trim() === '[DONE]') {
              finished = true;
              break;
            }
            const chunk = parseChunk(data);
            const piece = chunk.choices?.[0]?.delta?.content ?? '';
            if (piece) {
              content += piece;
              req.onToken?.(piece);
            }
          }
          if (!finished && !content) throw new ProviderError(`${SERVICE} closed the stream without an answer`, 'openai', 'malformed');
        }
      } catch (e) {
        throw networkError(e, { provider: 'openai', service: SERVICE, url, timeoutMs, call });
      }
      return { content, model, provider: 'openai', durationMs: Date.now() - started };
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
