import { existsSync } from 'node:fs';
import type { LlamaChat, LlamaGrammar } from 'node-llama-cpp';
import { ProviderError, abortError, callSignal } from '../../errors';
import type { ChatRequest, ChatResult, ComponentStatus, LlmProvider, ModelInfo } from '../../types';
import type { BuiltinConfig } from './config';
import { BuiltinEngine } from './engine';
import { callsOf, functionsOf, supportsFunctions, toHistory } from './functions';
import { boundNumbers, grammarSchema } from './grammarSchema';
import { BUILTIN_PREFIX, listModelFiles, modelPath } from './modelFiles';

// The built-in engine as an LLM provider: GGUF files in the models directory, answered by llama.cpp through
// node-llama-cpp in this process. Model names are 'builtin:<file>.gguf'. A turn that asks for a JSON Schema
// gets it through llama.cpp's grammar, so the answer is JSON of that shape by construction; the grammar
// bounds no numbers, so they are bounded here. Replies stream through req.onToken; req.signal stops one.
// Tools are offered as the chat wrapper's functions (functions.ts); the call loop runs the calls.

export const BUILTIN_PROVIDER_ID = 'builtin';
const SERVICE = 'The built-in engine';
/** A turn's answer is cut here unless the request says otherwise: a small model can ramble forever. */
const DEFAULT_MAX_TOKENS = 1024;

export type BuiltinOptions = Pick<
  BuiltinConfig,
  'modelsDir' | 'threads' | 'contextSize' | 'parallel' | 'idleUnloadMs' | 'gpu'
> & {
  /** Whole turn, loading included. Default 300 s. */
  timeoutMs?: number;
};

export interface BuiltinProvider extends LlmProvider {
  readonly modelsDir: string;
  readonly engine: BuiltinEngine;
  /** File names of the models in memory now. */
  loaded(): string[];
  /** Unloads one model (by file name) or all of them. */
  unload(fileName?: string): Promise<void>;
}

const fileOf = (model: string) => (model.startsWith(BUILTIN_PREFIX) ? model.slice(BUILTIN_PREFIX.length) : model);
const baseName = (p: string) => p.slice(p.lastIndexOf('/') + 1);

export function createBuiltinProvider(opts: BuiltinOptions): BuiltinProvider {
  const engine = new BuiltinEngine(opts);
  const timeoutMs = opts.timeoutMs ?? 300_000;
  const grammars = new Map<string, Promise<LlamaGrammar>>();
  let listed = new Set<string>();

  const grammarFor = async (schema: Record<string, unknown>) => {
    const reduced = grammarSchema(schema);
    const key = JSON.stringify(reduced);
    let g = grammars.get(key);
    if (!g) {
      // biome-ignore lint/suspicious/noExplicitAny: the reduced schema is checked by node-llama-cpp at run time
      g = engine.runtime().then((llama) => llama.createGrammarForJsonSchema(reduced as any));
      grammars.set(key, g);
      g.catch(() => grammars.delete(key));
    }
    return g;
  };

  const listModels = async (): Promise<ModelInfo[]> => {
    const files = await listModelFiles(opts.modelsDir);
    listed = new Set(files.map((f) => BUILTIN_PREFIX + f.name));
    return files.map((f) => ({
      name: BUILTIN_PREFIX + f.name,
      provider: BUILTIN_PROVIDER_ID,
      label: `${f.name.replace(/\.gguf$/i, '')} (Built-in)`,
    }));
  };

  return {
    id: BUILTIN_PROVIDER_ID,
    label: 'Built-in engine',
    modelsDir: opts.modelsDir,
    engine,
    // Only its own names: no `reachable`, so the registry never hands it a model name meant for another
    // provider (that one is down, most likely; the offline model stands in, as before).
    owns: (model) => model.startsWith(BUILTIN_PREFIX) || listed.has(model),
    // Offered as node-llama-cpp functions (functions.ts); a model whose template has no call syntax says so.
    toolCalling: true,
    listModels,
    loaded: () => engine.loadedFiles().map(baseName),
    unload: (fileName) => engine.unload(fileName ? (modelPath(opts.modelsDir, fileName) ?? undefined) : undefined),

    async probe(): Promise<ComponentStatus> {
      const models = await listModels();
      if (!models.length) return { status: 'ok', provider: BUILTIN_PROVIDER_ID, detail: 'no GGUF model yet' };
      try {
        await engine.runtime();
        return {
          status: 'ok',
          provider: BUILTIN_PROVIDER_ID,
          detail: `${models.length} model${models.length === 1 ? '' : 's'}, ${engine.loadedFiles().length} loaded`,
        };
      } catch (e) {
        return {
          status: 'unavailable',
          provider: BUILTIN_PROVIDER_ID,
          detail: `llama.cpp could not start: ${(e as Error).message}`,
        };
      }
    },

    async chat(req: ChatRequest): Promise<ChatResult> {
      const started = Date.now();
      const name = fileOf(req.model);
      const file = modelPath(opts.modelsDir, name);
      if (!file || !existsSync(file))
        throw new ProviderError(
          // Every user reads a turn's error; the folder is the operator's (the Models dialog names it to them).
          `${SERVICE} has no model "${name}"; ask the server's operator to add a model file`,
          BUILTIN_PROVIDER_ID,
          'unconfigured',
        );
      if (req.signal?.aborted) throw abortError(BUILTIN_PROVIDER_ID, req.signal);
      const call = callSignal(timeoutMs, req.signal);
      const fail = (e: unknown, doing: string): ProviderError => {
        if (e instanceof ProviderError) return e;
        if (call.aborted()) return abortError(BUILTIN_PROVIDER_ID, req.signal);
        if (call.timedOut())
          return new ProviderError(
            `${SERVICE} did not finish ${name} within ${Math.round(timeoutMs / 1000)} s`,
            BUILTIN_PROVIDER_ID,
            'timeout',
          );
        return new ProviderError(
          `${SERVICE} could not ${doing} ${name}: ${(e as Error)?.message ?? String(e)}`,
          BUILTIN_PROVIDER_ID,
          'failed',
        );
      };

      let lease;
      let grammar: LlamaGrammar | undefined;
      try {
        [lease, grammar] = await Promise.all([
          engine.acquire(file, call.signal),
          req.jsonSchema ? grammarFor(req.jsonSchema) : undefined,
        ]);
      } catch (e) {
        throw fail(e, 'load');
      }

      let chat: LlamaChat | undefined;
      try {
        const { LlamaChat } = await import('node-llama-cpp');
        // autoDisposeSequence: disposing the chat frees its sequence for the next turn; without it they run out.
        chat = new LlamaChat({
          contextSequence: lease.sequence,
          chatWrapper: lease.loaded.chatWrapper,
          autoDisposeSequence: true,
        });
        const maxTokens = req.maxTokens ?? DEFAULT_MAX_TOKENS;
        const history = toHistory(req.messages);
        const offered = req.tools?.length ? req.tools : undefined;
        const canCall = offered !== undefined && supportsFunctions(lease.loaded.chatWrapper);
        const base = {
          maxTokens,
          ...(req.temperature !== undefined ? { temperature: req.temperature } : {}),
          signal: call.signal,
          stopOnAbortSignal: false,
        };
        const stream = req.onToken ? (piece: string) => piece && req.onToken?.(piece) : undefined;
        const result = (content: string, extra: Partial<ChatResult> = {}): ChatResult => {
          // The engine's own tokenizer counts the call (the prompt without its chat template's few marker tokens).
          const count = (text: string) => lease.loaded.model.tokenize(text).length;
          const usage = {
            promptTokens: count(req.messages.map((m) => m.content).join('\n')),
            completionTokens: count(content),
            byTokenizer: true,
          };
          return {
            content,
            model: req.model,
            provider: BUILTIN_PROVIDER_ID,
            durationMs: Date.now() - started,
            usage,
            ...extra,
          };
        };
        if (canCall) {
          // Functions and a grammar cannot share one generation: a turn that wants JSON is not streamed while the
          // model may still call, and is asked again under its grammar when it answered in words instead.
          const res = await chat.generateResponse(history, {
            ...base,
            functions: functionsOf(offered),
            documentFunctionParams: true,
            onTextChunk: req.jsonSchema ? undefined : stream,
          });
          if (call.aborted()) throw abortError(BUILTIN_PROVIDER_ID, req.signal);
          if (res.functionCalls?.length)
            return result(res.response, { toolCalls: callsOf(res.functionCalls, req.messages) });
          if (!req.jsonSchema) return result(res.response);
          const json = jsonOrNull(res.response, req.jsonSchema);
          if (json !== null) {
            stream?.(json);
            return result(json);
          }
        }
        const res = await chat.generateResponse(history, { ...base, grammar, onTextChunk: stream });
        // A Stop that lands on the turn's last token still stops it: the caller asked for no answer.
        if (call.aborted()) throw abortError(BUILTIN_PROVIDER_ID, req.signal);
        const content = req.jsonSchema
          ? checkedJson(res.response, req.jsonSchema, res.metadata.stopReason === 'maxTokens' ? maxTokens : null)
          : res.response;
        return result(content, offered && !canCall ? { toolsUnsupported: true } : {});
      } catch (e) {
        throw fail(e, 'answer with');
      } finally {
        chat?.dispose();
        if (!chat) lease.sequence.dispose();
        lease.release();
      }
    },
  };
}

/** The grammar shapes the answer, but a cut-off stream is still not JSON, and numbers are unbounded. */
function checkedJson(text: string, schema: Record<string, unknown>, cutAt: number | null): string {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new ProviderError(
      cutAt !== null
        ? `The built-in model's answer reached the ${cutAt}-token limit before its JSON was complete`
        : "The built-in model's answer is not valid JSON",
      BUILTIN_PROVIDER_ID,
      'malformed',
    );
  }
  return JSON.stringify(boundNumbers(value, schema));
}

/** The text as the schema's JSON when it is that already, else null. */
function jsonOrNull(text: string, schema: Record<string, unknown>): string | null {
  try {
    return checkedJson(text, schema, null);
  } catch {
    return null;
  }
}
