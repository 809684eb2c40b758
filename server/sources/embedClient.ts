import type { FetchLike } from '../models/guardedFetch';
import { BodyTooLargeError, readCapped } from '../providers/boundedBody';
import { bearerHeaders, openaiApiBase } from '../providers/openaiUrl';

// The two embedding APIs a person's connection may speak, as their servers document them:
//   - Ollama: POST /api/embed { model, input: string[] } → { embeddings: number[][] }
//   - OpenAI-compatible: POST /v1/embeddings { model, input: string[] } → { data: [{ index, embedding }] }
// One call embeds one batch. Every answer is bounded (time, body size, count, dimension, finite numbers) and any
// failure is one EmbedError with a sentence the Sources list can show.

/** Longest vector accepted (the largest common models give 3,072; pgvector's HNSW indexes up to 2,000). */
export const EMBED_MAX_DIMENSIONS = 4_096;
/** Longest text sent to be embedded, in characters (a passage is ~500 words; a question is cut to this). */
export const EMBED_MAX_INPUT_CHARS = 8_000;

export interface EmbedEndpoint {
  kind: 'ollama' | 'openai';
  baseUrl: string;
  apiKey: string | null;
  /** The address rule's fetch for a person's own connection; the global fetch for the server's. */
  fetch: FetchLike;
}

export interface EmbedLimits {
  timeoutMs: number;
  maxBytes: number;
  signal?: AbortSignal;
}

export class EmbedError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'EmbedError';
  }
}

const vectorsOf = (kind: EmbedEndpoint['kind'], body: unknown): unknown[] | null => {
  if (kind === 'ollama') {
    const e = (body as { embeddings?: unknown })?.embeddings;
    return Array.isArray(e) ? e : null;
  }
  const data = (body as { data?: unknown })?.data;
  if (!Array.isArray(data)) return null;
  // The answer's order is its `index`, not its position.
  const out: unknown[] = [];
  for (const [i, d] of data.entries()) {
    const index = typeof d?.index === 'number' ? d.index : i;
    out[index] = d?.embedding;
  }
  return out;
};

function checked(raw: unknown[] | null, count: number, where: string): number[][] {
  if (!raw || raw.length !== count)
    throw new EmbedError(`${where} answered without ${count} embedding${count === 1 ? '' : 's'}`);
  let dim = -1;
  return raw.map((v) => {
    if (!Array.isArray(v) || !v.length || v.length > EMBED_MAX_DIMENSIONS)
      throw new EmbedError(`${where} answered with a vector that is not 1 to ${EMBED_MAX_DIMENSIONS} numbers`);
    if (dim >= 0 && v.length !== dim) throw new EmbedError(`${where} answered with vectors of different lengths`);
    dim = v.length;
    if (!v.every((x) => typeof x === 'number' && Number.isFinite(x)))
      throw new EmbedError(`${where} answered with a vector that is not all numbers`);
    if (!v.some((x) => x !== 0)) throw new EmbedError(`${where} answered with an empty (all-zero) vector`);
    return v as number[];
  });
}

/** Embeds `texts` (one batch) with `model` at `endpoint`; every vector the same length. */
export async function embedTexts(
  endpoint: EmbedEndpoint,
  model: string,
  texts: readonly string[],
  limits: EmbedLimits,
): Promise<number[][]> {
  if (!texts.length) return [];
  const input = texts.map((t) => t.slice(0, EMBED_MAX_INPUT_CHARS));
  const url =
    endpoint.kind === 'ollama'
      ? `${endpoint.baseUrl.replace(/\/+$/, '')}/api/embed`
      : `${openaiApiBase(endpoint.baseUrl)}/embeddings`;
  const where = endpoint.kind === 'ollama' ? 'Ollama' : 'The embedding server';
  const body =
    endpoint.kind === 'ollama' ? { model, input, truncate: true } : { model, input, encoding_format: 'float' };
  const signals = [AbortSignal.timeout(limits.timeoutMs), ...(limits.signal ? [limits.signal] : [])];
  try {
    const res = await endpoint.fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...bearerHeaders(endpoint.apiKey ?? undefined) },
      body: JSON.stringify(body),
      signal: AbortSignal.any(signals),
    });
    const text = await readCapped(res, limits.maxBytes);
    if (!res.ok) {
      const detail = text.slice(0, 200).replace(/\s+/g, ' ').trim();
      throw new EmbedError(`${where} answered ${res.status}${detail ? `: ${detail}` : ''}`);
    }
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      throw new EmbedError(`${where} answered with something that is not JSON`);
    }
    return checked(vectorsOf(endpoint.kind, parsed), input.length, where);
  } catch (e) {
    if (e instanceof EmbedError) throw e;
    if (e instanceof BodyTooLargeError)
      throw new EmbedError(
        `${where} answered with more than ${Math.round(limits.maxBytes / 1024 / 1024)} MB (SOURCE_EMBED_MAX_RESPONSE_BYTES)`,
      );
    if (limits.signal?.aborted) throw new EmbedError('Embedding was stopped');
    const name = (e as Error).name;
    if (name === 'TimeoutError' || name === 'AbortError')
      throw new EmbedError(
        `${where} did not answer within ${limits.timeoutMs < 1_000 ? `${limits.timeoutMs} ms` : `${Math.round(limits.timeoutMs / 1000)} s`}`,
      );
    const cause = (e as { cause?: Error }).cause;
    throw new EmbedError(`${where} could not be reached (${cause?.message ?? (e as Error).message})`);
  }
}
