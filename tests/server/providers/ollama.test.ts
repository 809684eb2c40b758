import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { turnAnswer } from '../../../server/engine/turnAnswer';
import { createOllamaProvider } from '../../../server/providers/llm/ollama';
import { closedPort, sendJson, sleep, startLoopback } from '../../support/loopback';

// A fake Ollama speaking the real protocol: GET /api/tags, POST /api/chat streamed as NDJSON.
const TAGS = {
  models: [
    {
      name: 'llama3.2:latest',
      model: 'llama3.2:latest',
      modified_at: '2025-01-10T09:00:00Z',
      size: 2019393189,
      digest: 'a80c4f17acd5',
      details: { format: 'gguf', family: 'llama', parameter_size: '3.2B', quantization_level: 'Q4_K_M' },
    },
    {
      name: 'gemma3:4b',
      model: 'gemma3:4b',
      modified_at: '2025-03-12T09:00:00Z',
      size: 3338801804,
      digest: 'a2af6cc3eb7f',
      details: { format: 'gguf', family: 'gemma3', parameter_size: '4.3B', quantization_level: 'Q4_K_M' },
    },
  ],
};
const chunk = (content: string, done = false) =>
  JSON.stringify({
    model: 'llama3.2:latest',
    created_at: '2025-05-01T10:00:00.000Z',
    message: { role: 'assistant', content },
    done,
    ...(done ? { done_reason: 'stop', total_duration: 123456, eval_count: 7 } : {}),
  }) + '\n';

let close: (() => Promise<void>) | null = null;
afterEach(async () => {
  await close?.();
  close = null;
});

async function fakeOllama(chat: (res: import('node:http').ServerResponse, body: any) => Promise<void> | void) {
  const lb = await startLoopback(async (req, res) => {
    if (req.method === 'GET' && req.url === '/api/tags') return sendJson(res, 200, TAGS);
    if (req.method === 'POST' && req.url === '/api/chat') return chat(res, req.json());
    sendJson(res, 404, { error: 'not found' });
  });
  close = lb.close;
  return lb;
}

describe('Ollama provider', () => {
  it('lists the models from /api/tags, owns them, and probes ok', async () => {
    const lb = await fakeOllama(() => undefined);
    const p = createOllamaProvider({ host: `${lb.url}/` });
    expect(p.owns('llama3.2:latest')).toBe(false);
    const models = await p.listModels();
    expect(models).toEqual([
      { name: 'llama3.2:latest', provider: 'ollama', label: 'llama3.2:latest (Ollama)' },
      { name: 'gemma3:4b', provider: 'ollama', label: 'gemma3:4b (Ollama)' },
    ]);
    expect(p.owns('gemma3:4b')).toBe(true);
    expect(p.owns('ollama:mistral')).toBe(true);
    expect(p.owns('gpt-4o')).toBe(false);
    expect(p.reachable?.()).toBe(true);
    expect(await p.probe()).toMatchObject({
      status: 'ok',
      provider: 'ollama',
      detail: expect.stringContaining('2 models'),
    });
  });

  it('streams /api/chat as NDJSON and passes the JSON schema as `format`', async () => {
    const lb = await fakeOllama(async (res) => {
      res.writeHead(200, { 'content-type': 'application/x-ndjson' });
      const whole = chunk('{"content":"Hi') + chunk(' there","stance":"support"}') + chunk('', true);
      // Split across writes mid-line, as TCP may.
      for (let i = 0; i < whole.length; i += 37) {
        res.write(whole.slice(i, i + 37));
        await sleep(2);
      }
      res.end();
    });
    const p = createOllamaProvider({ host: lb.url });
    const schema = z.toJSONSchema(turnAnswer) as Record<string, unknown>;
    const pieces: string[] = [];
    const r = await p.chat({
      model: 'ollama:llama3.2:latest',
      messages: [
        { role: 'system', content: 'Be brief.' },
        { role: 'user', content: 'Hello' },
      ],
      maxTokens: 64,
      temperature: 0.3,
      jsonSchema: schema,
      onToken: (t) => pieces.push(t),
    });
    expect(r).toMatchObject({
      content: '{"content":"Hi there","stance":"support"}',
      model: 'llama3.2:latest',
      provider: 'ollama',
    });
    expect(pieces).toEqual(['{"content":"Hi', ' there","stance":"support"}']);
    const sent = lb.requests.find((q) => q.url === '/api/chat')!.json();
    expect(sent).toEqual({
      model: 'llama3.2:latest',
      messages: [
        { role: 'system', content: 'Be brief.' },
        { role: 'user', content: 'Hello' },
      ],
      stream: true,
      options: { num_predict: 64, temperature: 0.3 },
      format: schema,
    });
  });

  it('omits `format` for plain text', async () => {
    const lb = await fakeOllama((res) => {
      res.writeHead(200, { 'content-type': 'application/x-ndjson' });
      res.end(chunk('Plain.') + chunk('', true));
    });
    const r = await createOllamaProvider({ host: lb.url }).chat({
      model: 'llama3.2:latest',
      messages: [{ role: 'user', content: 'x' }],
    });
    expect(r.content).toBe('Plain.');
    expect(lb.requests[0].json()).not.toHaveProperty('format');
  });

  it('says so when the model is missing (404) or the server fails (500)', async () => {
    let status = 404;
    const lb = await fakeOllama((res) =>
      sendJson(res, status, {
        error: status === 404 ? 'model "nope" not found, try pulling it first' : 'llama runner process has terminated',
      }),
    );
    const p = createOllamaProvider({ host: lb.url });
    await expect(p.chat({ model: 'nope', messages: [] })).rejects.toThrow(
      'Ollama answered 404: model "nope" not found, try pulling it first',
    );
    status = 500;
    await expect(p.chat({ model: 'nope', messages: [] })).rejects.toMatchObject({
      message: 'Ollama answered 500: llama runner process has terminated',
      kind: 'http',
      status: 500,
    });
  });

  it('rejects a malformed stream line and an error line, and a stream cut short', async () => {
    let mode = 'garbage';
    const lb = await fakeOllama((res) => {
      res.writeHead(200, { 'content-type': 'application/x-ndjson' });
      if (mode === 'garbage') res.end(chunk('ok') + '{"message": {"content": "unterminated\n');
      else if (mode === 'error') res.end(chunk('ok') + JSON.stringify({ error: 'out of memory' }) + '\n');
      else res.end(chunk('half'));
    });
    const p = createOllamaProvider({ host: lb.url });
    await expect(p.chat({ model: 'llama3.2:latest', messages: [] })).rejects.toMatchObject({
      kind: 'malformed',
      message: expect.stringContaining('Ollama sent an unreadable stream line'),
    });
    mode = 'error';
    await expect(p.chat({ model: 'llama3.2:latest', messages: [] })).rejects.toThrow(
      'Ollama failed while answering: out of memory',
    );
    mode = 'cut';
    await expect(p.chat({ model: 'llama3.2:latest', messages: [] })).rejects.toThrow(
      'Ollama closed the answer before it was complete',
    );
  });

  it('times out a slow answer with a clear message, also mid-stream', async () => {
    let midStream = false;
    const lb = await fakeOllama(async (res) => {
      if (midStream) {
        res.writeHead(200, { 'content-type': 'application/x-ndjson' });
        res.write(chunk('thinking'));
      }
      await sleep(3000);
      res.end();
    });
    const p = createOllamaProvider({ host: lb.url, timeoutMs: 200 });
    const t0 = Date.now();
    await expect(p.chat({ model: 'llama3.2:latest', messages: [] })).rejects.toMatchObject({
      kind: 'timeout',
      message: `Ollama at ${lb.url} did not answer within 0.2 s`,
    });
    midStream = true;
    await expect(p.chat({ model: 'llama3.2:latest', messages: [] })).rejects.toMatchObject({ kind: 'timeout' });
    expect(Date.now() - t0).toBeLessThan(2000);
  });

  it('stops when the caller aborts, as an AbortError (not a time-out)', async () => {
    const lb = await fakeOllama(async (res) => {
      res.writeHead(200, { 'content-type': 'application/x-ndjson' });
      res.write(chunk('one '));
      await sleep(3000);
      res.end();
    });
    const ac = new AbortController();
    const pieces: string[] = [];
    const call = createOllamaProvider({ host: lb.url }).chat({
      model: 'llama3.2:latest',
      messages: [],
      signal: ac.signal,
      onToken: (t) => {
        pieces.push(t);
        ac.abort();
      },
    });
    await expect(call).rejects.toMatchObject({ name: 'AbortError', kind: 'aborted' });
    expect(pieces).toEqual(['one ']);
  });

  it('reports an unreachable host quickly: empty list, unavailable probe, clear chat error', async () => {
    const url = await closedPort();
    const p = createOllamaProvider({ host: url });
    const t0 = Date.now();
    expect(await p.listModels()).toEqual([]);
    expect(Date.now() - t0).toBeLessThan(1600);
    expect(p.reachable?.()).toBe(false);
    expect(await p.probe()).toMatchObject({
      status: 'unavailable',
      detail: `Ollama at ${url} is not reachable (ECONNREFUSED)`,
    });
    await expect(p.chat({ model: 'llama3.2:latest', messages: [] })).rejects.toMatchObject({
      kind: 'unreachable',
      message: `Ollama at ${url} is not reachable (ECONNREFUSED)`,
    });
  });

  it('caches the probe briefly', async () => {
    const lb = await fakeOllama(() => undefined);
    const p = createOllamaProvider({ host: lb.url, probeCacheMs: 10_000 });
    await p.probe();
    await p.probe();
    expect(lb.requests.filter((r) => r.url === '/api/tags')).toHaveLength(1);
  });
});
