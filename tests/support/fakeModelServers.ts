import { createHash } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { startLoopback } from './loopback';

// Loopback servers that speak the real protocols of the two model servers a user connects (server tests and the
// end-to-end suite share them):
//   - OpenAI-compatible (https://platform.openai.com/docs/api-reference): GET /v1/models, POST
//     /v1/chat/completions streamed as server-sent events (`data: {choices:[{delta:{content}}]}` … `data: [DONE]`),
//     honouring `response_format` json_schema by answering JSON; an optional bearer key (401 otherwise).
//   - Ollama (https://github.com/ollama/ollama/blob/main/docs/api.md): GET /api/tags, POST /api/chat streamed as
//     NDJSON, POST /api/pull streamed as NDJSON progress (manifest, layers with total/completed, verifying, success),
//     DELETE /api/delete.
// Each records the requests it saw, so a test can assert what the product sent.

export interface Seen {
  method: string;
  url: string;
  headers: IncomingMessage['headers'];
  body: any;
}

async function listen(handler: (req: Seen, res: ServerResponse, raw: IncomingMessage) => unknown) {
  const seen: Seen[] = [];
  const server = await startLoopback(async (rec, res, raw) => {
    const text = rec.body.toString('utf8');
    let body: unknown = text;
    try {
      body = text ? JSON.parse(text) : null;
    } catch {
      /* keep the text */
    }
    const req = { method: rec.method, url: rec.url, headers: rec.headers, body };
    seen.push(req);
    await handler(req, res, raw);
  });
  return { url: server.url, seen, close: server.close };
}

const json = (res: ServerResponse, status: number, body: unknown) => {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify(body));
};
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** The words a fake model says in a turn: a JSON turn answer when a schema was asked for, else the sentence. */
export function turnAnswerText(sentence: string, asJson: boolean) {
  return asJson
    ? JSON.stringify({
        content: sentence,
        stance: 'support',
        confidence: 0.8,
        argument_type: 'proposal',
        reasoning: ['It follows.'],
      })
    : sentence;
}

/** Splits a text into stream pieces of a few characters, as a real server's tokens. */
const pieces = (text: string) => text.match(/.{1,12}/gs) ?? [];

export interface FakeOpenAiOptions {
  models?: string[];
  /** When set, every call must carry `Authorization: Bearer <apiKey>`. */
  apiKey?: string;
  /** What the model says; given the request's last user message. */
  say?: (lastUser: string, model: string) => string;
  /** Pause between streamed pieces. */
  pieceDelayMs?: number;
  /** A scripted turn answer, given the request's messages, when a schema was asked for (else `say`'s sentence). */
  answer?: (messages: Array<{ role: string; content: string }>, model: string) => object;
  /** Tokens the server says each call used, sent when asked for (stream_options.include_usage) or unstreamed. */
  usage?: { prompt_tokens: number; completion_tokens: number };
}

export async function startFakeOpenAi(opts: FakeOpenAiOptions = {}) {
  const models = opts.models ?? ['fake-gpt-mini', 'meta-llama/fake-70b'];
  const say = opts.say ?? ((_u: string, model: string) => `The ${model} fake model says the orchard needs more bees.`);
  return listen(async (req, res) => {
    const path = req.url.split('?')[0];
    if (opts.apiKey && req.headers.authorization !== `Bearer ${opts.apiKey}`) {
      return json(res, 401, {
        error: { message: 'Incorrect API key provided', type: 'invalid_request_error', code: 'invalid_api_key' },
      });
    }
    if (req.method === 'GET' && path === '/v1/models') {
      return json(res, 200, {
        object: 'list',
        data: models.map((id) => ({ id, object: 'model', created: 1_700_000_000, owned_by: 'fake' })),
      });
    }
    if (req.method === 'POST' && path === '/v1/chat/completions') {
      const body = req.body as {
        model: string;
        messages: Array<{ role: string; content: string }>;
        stream?: boolean;
        response_format?: { type?: string };
        stream_options?: { include_usage?: boolean };
      };
      const usage = opts.usage
        ? { ...opts.usage, total_tokens: opts.usage.prompt_tokens + opts.usage.completion_tokens }
        : undefined;
      if (!models.includes(body.model))
        return json(res, 404, {
          error: { message: `The model \`${body.model}\` does not exist`, code: 'model_not_found' },
        });
      const lastUser = [...body.messages].reverse().find((m) => m.role === 'user')?.content ?? '';
      const asJson = body.response_format?.type === 'json_schema' || body.response_format?.type === 'json_object';
      const text =
        asJson && opts.answer
          ? JSON.stringify(opts.answer(body.messages, body.model))
          : turnAnswerText(say(lastUser, body.model), asJson);
      if (!body.stream) {
        return json(res, 200, {
          id: 'chatcmpl-1',
          object: 'chat.completion',
          model: body.model,
          choices: [{ index: 0, message: { role: 'assistant', content: text }, finish_reason: 'stop' }],
          ...(usage ? { usage } : {}),
        });
      }
      res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
      for (const p of pieces(text)) {
        res.write(
          `data: ${JSON.stringify({ id: 'chatcmpl-1', object: 'chat.completion.chunk', model: body.model, choices: [{ index: 0, delta: { content: p }, finish_reason: null }] })}\n\n`,
        );
        if (opts.pieceDelayMs) await sleep(opts.pieceDelayMs);
      }
      res.write(
        `data: ${JSON.stringify({ id: 'chatcmpl-1', object: 'chat.completion.chunk', model: body.model, choices: [{ index: 0, delta: {}, finish_reason: 'stop' }] })}\n\n`,
      );
      if (usage && body.stream_options?.include_usage)
        res.write(
          `data: ${JSON.stringify({ id: 'chatcmpl-1', object: 'chat.completion.chunk', model: body.model, choices: [], usage })}\n\n`,
        );
      res.end('data: [DONE]\n\n');
      return;
    }
    json(res, 404, { error: { message: `Unknown path ${path}` } });
  });
}

export interface FakeOllamaOptions {
  models?: string[];
  /** What each pullable model is made of: layer sizes in bytes. Unknown names fail as Ollama does. */
  pullable?: Record<string, number[]>;
  /** Bytes per progress line and the pause between lines: a pull's pace. */
  pullStepBytes?: number;
  pullStepMs?: number;
  say?: (lastUser: string, model: string) => string;
}

export async function startFakeOllama(opts: FakeOllamaOptions = {}) {
  const models = new Set(opts.models ?? ['llama3.2:1b']);
  const pullable = opts.pullable ?? { 'qwen2.5:0.5b': [1_000_000, 4_000] };
  const step = opts.pullStepBytes ?? 100_000;
  const say =
    opts.say ?? ((_u: string, model: string) => `The ${model} fake Ollama model says the vineyard wants shade.`);
  const server = await listen(async (req, res, raw) => {
    const path = req.url.split('?')[0];
    const body = (req.body ?? {}) as {
      model?: string;
      name?: string;
      messages?: Array<{ role: string; content: string }>;
      format?: unknown;
      stream?: boolean;
    };
    const name = body.model ?? body.name ?? '';
    if (req.method === 'GET' && path === '/api/tags') {
      return json(res, 200, {
        models: [...models].map((m) => ({
          name: m,
          model: m,
          modified_at: '2025-01-01T00:00:00Z',
          size: 1_000_000,
          digest: 'f'.repeat(64),
          details: { format: 'gguf' },
        })),
      });
    }
    if (req.method === 'POST' && path === '/api/chat') {
      if (!models.has(name)) return json(res, 404, { error: `model "${name}" not found, try pulling it first` });
      const lastUser = [...(body.messages ?? [])].reverse().find((m) => m.role === 'user')?.content ?? '';
      const text = turnAnswerText(say(lastUser, name), !!body.format);
      res.writeHead(200, { 'content-type': 'application/x-ndjson' });
      for (const p of pieces(text))
        res.write(
          `${JSON.stringify({ model: name, created_at: new Date().toISOString(), message: { role: 'assistant', content: p }, done: false })}\n`,
        );
      res.end(
        `${JSON.stringify({ model: name, created_at: new Date().toISOString(), message: { role: 'assistant', content: '' }, done: true, done_reason: 'stop' })}\n`,
      );
      return;
    }
    if (req.method === 'POST' && path === '/api/pull') {
      const layers = pullable[name];
      res.writeHead(200, { 'content-type': 'application/x-ndjson' });
      const line = (o: object) => res.write(`${JSON.stringify(o)}\n`);
      line({ status: 'pulling manifest' });
      if (!layers) return res.end(`${JSON.stringify({ error: 'pull model manifest: file does not exist' })}\n`);
      let closed = false;
      raw.on('close', () => (closed = true));
      res.on('close', () => (closed = true));
      for (const [i, total] of layers.entries()) {
        const digest = `sha256:${createHash('sha256').update(`${name}#${i}`).digest('hex')}`;
        for (let done = 0; ; done = Math.min(total, done + step)) {
          if (closed) return;
          line({ status: `pulling ${digest.slice(7, 19)}`, digest, total, completed: done });
          if (done >= total) break;
          await sleep(opts.pullStepMs ?? 20);
        }
      }
      line({ status: 'verifying sha256 digest' });
      line({ status: 'writing manifest' });
      models.add(name);
      res.end(`${JSON.stringify({ status: 'success' })}\n`);
      return;
    }
    if (req.method === 'DELETE' && path === '/api/delete') {
      if (!models.delete(name)) return json(res, 404, { error: `model '${name}' not found` });
      res.writeHead(200);
      res.end();
      return;
    }
    json(res, 404, { error: `unknown path ${path}` });
  });
  return { ...server, models };
}
