import { createHash } from 'node:crypto';
import type { ServerResponse } from 'node:http';
import { startLoopback } from '../../support/loopback';

// Loopback embedding servers speaking the real request and response shapes:
//   - Ollama: GET /api/tags, POST /api/embed { model, input } → { model, embeddings: number[][] }
//   - OpenAI-compatible: GET /v1/models, POST /v1/embeddings { model, input } →
//     { object: 'list', data: [{ object: 'embedding', index, embedding }], model, usage }
// They embed deterministically: each word is mapped to a concept (a few synonyms share one) and each concept is
// hashed to one of DIMENSIONS places, so 'automobile exhaust' and 'vehicles pollute' are near without a shared word.
// `mode` makes one fail: 'error' answers 500, 'hang' never answers.

export const DIMENSIONS = 64;

const CONCEPTS: Record<string, string> = {
  vehicle: 'vehicle',
  vehicles: 'vehicle',
  automobile: 'vehicle',
  automobiles: 'vehicle',
  car: 'vehicle',
  cars: 'vehicle',
  pollute: 'pollution',
  pollution: 'pollution',
  exhaust: 'pollution',
  fumes: 'pollution',
  fouls: 'pollution',
  city: 'city',
  urban: 'city',
  town: 'city',
  air: 'air',
  atmosphere: 'air',
};

/** The fake model's vector of a text: a normalised bag of concepts. */
export function meaningVector(text: string): number[] {
  const v = new Array<number>(DIMENSIONS).fill(0);
  for (const w of text.toLowerCase().match(/[a-z]+/g) ?? []) {
    const concept = CONCEPTS[w] ?? w;
    const h = createHash('sha256').update(concept).digest();
    v[h[0] % DIMENSIONS] += 1;
  }
  if (!v.some((x) => x)) v[0] = 1;
  const norm = Math.hypot(...v);
  return v.map((x) => x / norm);
}

export type EmbedMode = 'ok' | 'error' | 'hang';

const json = (res: ServerResponse, status: number, body: unknown) => {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify(body));
};

const inputsOf = (body: { input?: unknown }) =>
  Array.isArray(body.input) ? (body.input as string[]) : [String(body.input ?? '')];

export async function startFakeEmbedder(kind: 'ollama' | 'openai', models = ['nomic-embed-text', 'llama3.2']) {
  const state = { mode: 'ok' as EmbedMode, embedded: 0, calls: 0 };
  const hanging = new Set<ServerResponse>();
  const lb = await startLoopback(async (req, res) => {
    const path = req.url.split('?')[0];
    if (kind === 'ollama' && req.method === 'GET' && path === '/api/tags')
      return json(res, 200, { models: models.map((name) => ({ name, model: name, size: 1 })) });
    if (kind === 'openai' && req.method === 'GET' && path === '/v1/models')
      return json(res, 200, { object: 'list', data: models.map((id) => ({ id, object: 'model', owned_by: 'fake' })) });
    const embedPath = kind === 'ollama' ? '/api/embed' : '/v1/embeddings';
    if (req.method !== 'POST' || path !== embedPath) return json(res, 404, { error: 'not found' });
    state.calls++;
    if (state.mode === 'hang') {
      hanging.add(res);
      return new Promise<void>((resolve) => res.on('close', resolve));
    }
    if (state.mode === 'error') return json(res, 500, { error: 'the embedding model crashed' });
    const body = req.json();
    const inputs = inputsOf(body);
    state.embedded += inputs.length;
    const vectors = inputs.map(meaningVector);
    if (kind === 'ollama') return json(res, 200, { model: body.model, embeddings: vectors });
    return json(res, 200, {
      object: 'list',
      // Out of order on purpose: a client must read `index`.
      data: vectors.map((embedding, index) => ({ object: 'embedding', index, embedding })).reverse(),
      model: body.model,
      usage: { prompt_tokens: inputs.length, total_tokens: inputs.length },
    });
  });
  return {
    url: kind === 'ollama' ? lb.url : `${lb.url}/v1`,
    state,
    async close() {
      for (const r of hanging) r.destroy();
      await lb.close();
    },
  };
}
