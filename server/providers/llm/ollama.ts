import { ProviderError, callSignal, httpError, networkError, origin } from '../errors';
import type { ChatRequest, ChatResult, ComponentStatus, LlmProvider, ModelInfo } from '../types';
import { lines } from './stream';

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
}

const PREFIX = 'ollama:';
const SERVICE = 'Ollama';

export function createOllamaProvider(opts: OllamaOptions): LlmProvider {
  const host = opts.host.replace(/\/+$/, '');
  const timeoutMs = opts.timeoutMs ?? 120_000;
  const listTimeoutMs = opts.listTimeoutMs ?? 1_500;
  const probeCacheMs = opts.probeCacheMs ?? 5_000;
  let listed = new Set<string>();
  let reachable = false;
  let probed: { at: number; value: Promise<ComponentStatus> } | null = null;

  async function tags(): Promise<string[]> {
    const url = `${host}/api/tags`;
    const call = callSignal(listTimeoutMs);
    try {
      const res = await fetch(url, { signal: call.signal });
      if (!res.ok) throw await httpError(res, 'ollama', SERVICE);
      const body = (await res.json()) as { models?: Array<{ name?: string; model?: string }> };
      const names = (body.models ?? []).map((m) => m.name ?? m.model).filter((n): n is string => !!n);
      listed = new Set(names);
      reachable = true;
      return names;
    } catch (e) {
      reachable = false;
      throw networkError(e, { provider: 'ollama', service: SERVICE, url, timeoutMs: listTimeoutMs, call });
    }
  }

  return {
    id: 'ollama',
    label: `Ollama (${origin(host)})`,
    owns: (model) => listed.has(model) || model.startsWith(PREFIX),
    reachable: () => reachable,

    async listModels(): Promise<ModelInfo[]> {
      try {
        return (await tags()).map((name) => ({ name, provider: 'ollama', label: `${name} (Ollama)` }));
      } catch {
        return [];
      }
    },

    probe() {
      const now = Date.now();
      if (!probed || now - probed.at > probeCacheMs) {
        probed = {
          at: now,
          value: tags().then(
            (names): ComponentStatus => ({ status: 'ok', provider: 'ollama', detail: `${names.length} model${names.length === 1 ? '' : 's'} at ${origin(host)}` }),
            (e): ComponentStatus => ({ status: 'unavailable', provider: 'ollama', detail: (e as Error).message }),
          ),
        };
      }
      return probed.value;
    },

    async chat(req: ChatRequest): Promise<ChatResult> {
      const started = Date.now();
      const model = req.model.startsWith(PREFIX) ? req.model.slice(PREFIX.length) : req.model;
      const url = `${host}/api/chat`;
      const call = callSignal(timeoutMs, req.signal);
      const options: Record<string, number> = {};
      if (req.maxTokens !== undefined) options.num_predict = req.maxTokens;
      if (req.temperature !== undefined) options.temperature = req.temperature;
      const body = {
        model,
        messages: req.messages,
        stream: true,
        options,
        ...(req.jsonSchema ? { format: req.jsonSchema } : {}),
      };
      let content = '';
      try {
        const res = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body), signal: call.signal });
        if (!res.ok) throw await httpError(res, 'ollama', SERVICE);
        if (!res.body) throw new ProviderError(`${SERVICE} sent an empty answer`, 'ollama', 'malformed');
        reachable = true;
        let done = false;
        for await (const line of lines(res.body)) {
          if (!line.trim()) continue;
          let chunk: { message?: { content?: string }; done?: boolean; error?: string };
          try {
            chunk = JSON.parse(line);
          } catch {
            throw new ProviderError(`${SERVICE} sent an unreadable stream line: ${line.slice(0, 80)}`, 'ollama', 'malformed');
          }
          if (chunk.error) throw new ProviderError(`${SERVICE} failed while answering: ${chunk.error}`, 'ollama', 'failed');
          const piece = chunk.message?.content ?? '';
          if (piece) {
            content += piece;
            req.onToken?.(piece);
          }
          if (chunk.done) {
            done = true;
            break;
          }
        }
        if (!done) throw new ProviderError(`${SERVICE} closed the answer before it was complete`, 'ollama', 'malformed');
      } catch (e) {
        throw networkError(e, { provider: 'ollama', service: SERVICE, url, timeoutMs, call });
      }
      return { content, model, provider: 'ollama', durationMs: Date.now() - started };
    },
  };
}
