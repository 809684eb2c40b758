import type { ServerResponse } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { turnAnswer } from '../../../server/engine/turnAnswer';
import { createOpenAiProvider } from '../../../server/providers/llm/openai';
import { openaiApiBase } from '../../../server/providers/openaiUrl';
import { closedPort, sendJson, sleep, startLoopback } from '../../support/loopback';

// A fake OpenAI-compatible server: GET /v1/models, POST /v1/chat/completions streamed as SSE.
const KEY = 'sk-test-123';
const MODELS = {
  object: 'list',
  data: [
    { id: 'gpt-4o-mini', object: 'model', created: 1721172741, owned_by: 'system' },
    { id: 'qwen2.5-7b-instruct', object: 'model', created: 1726000000, owned_by: 'vllm' },
  ],
};
const delta = (content: string | null, finish: string | null = null) =>
  `data: ${JSON.stringify({ id: 'chatcmpl-9x', object: 'chat.completion.chunk', created: 1730000000, model: 'gpt-4o-mini', choices: [{ index: 0, delta: content === null ? {} : { content }, logprobs: null, finish_reason: finish }] })}\n\n`;
const UNAUTHORIZED = {
  error: {
    message: 'Incorrect API key provided: sk-wrong.',
    type: 'invalid_request_error',
    param: null,
    code: 'invalid_api_key',
  },
};

let close: (() => Promise<void>) | null = null;
afterEach(async () => {
  await close?.();
  close = null;
});

async function fakeOpenAi(chat: (res: ServerResponse, body: any) => Promise<void> | void) {
  const lb = await startLoopback(async (req, res) => {
    if (req.headers.authorization !== `Bearer ${KEY}`) return sendJson(res, 401, UNAUTHORIZED);
    if (req.method === 'GET' && req.url === '/v1/models') return sendJson(res, 200, MODELS);
    if (req.method === 'POST' && req.url === '/v1/chat/completions') return chat(res, req.json());
    sendJson(res, 404, { error: { message: `Unknown path ${req.url}` } });
  });
  close = lb.close;
  return lb;
}

const sse = (res: ServerResponse) =>
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });

describe('OpenAI-compatible provider', () => {
  it('accepts a base URL with or without /v1', () => {
    expect(openaiApiBase('http://h:8080')).toBe('http://h:8080/v1');
    expect(openaiApiBase('http://h:8080/v1/')).toBe('http://h:8080/v1');
    expect(openaiApiBase('https://api.example.com/openai/v1')).toBe('https://api.example.com/openai/v1');
  });

  it('lists /v1/models with the bearer key and owns them', async () => {
    const lb = await fakeOpenAi(() => undefined);
    for (const base of [lb.url, `${lb.url}/v1`]) {
      const p = createOpenAiProvider({ baseUrl: base, apiKey: KEY });
      expect((await p.listModels()).map((m) => m.name)).toEqual(['gpt-4o-mini', 'qwen2.5-7b-instruct']);
      expect(p.owns('gpt-4o-mini')).toBe(true);
      expect(p.owns('openai:whatever')).toBe(true);
      expect(p.owns('llama3.2:latest')).toBe(false);
      expect((await p.probe()).status).toBe('ok');
    }
  });

  it('streams chat completions over SSE and asks for the JSON schema via response_format', async () => {
    const lb = await fakeOpenAi(async (res) => {
      sse(res);
      const whole =
        ': keep-alive\n\n' +
        delta('', null) +
        delta('{"content":') +
        delta('"Agreed."}') +
        delta(null, 'stop') +
        'data: [DONE]\n\n';
      for (let i = 0; i < whole.length; i += 29) {
        res.write(whole.slice(i, i + 29));
        await sleep(1);
      }
      res.end();
    });
    const p = createOpenAiProvider({ baseUrl: lb.url, apiKey: KEY });
    const schema = z.toJSONSchema(turnAnswer) as Record<string, unknown>;
    const pieces: string[] = [];
    const r = await p.chat({
      model: 'openai:gpt-4o-mini',
      messages: [{ role: 'user', content: 'Agree?' }],
      maxTokens: 100,
      temperature: 0.7,
      jsonSchema: schema,
      onToken: (t) => pieces.push(t),
    });
    expect(r).toMatchObject({ content: '{"content":"Agreed."}', provider: 'openai', model: 'gpt-4o-mini' });
    expect(pieces).toEqual(['{"content":', '"Agreed."}']);
    expect(lb.requests.at(-1)!.json()).toEqual({
      model: 'gpt-4o-mini',
      messages: [{ role: 'user', content: 'Agree?' }],
      stream: true,
      max_tokens: 100,
      temperature: 0.7,
      response_format: { type: 'json_schema', json_schema: { name: 'turn_answer', schema, strict: false } },
    });
  });

  it('takes a whole JSON completion from a server that ignores `stream`', async () => {
    const lb = await fakeOpenAi((res) =>
      sendJson(res, 200, {
        id: 'x',
        object: 'chat.completion',
        choices: [{ index: 0, message: { role: 'assistant', content: 'All at once.' }, finish_reason: 'stop' }],
      }),
    );
    const r = await createOpenAiProvider({ baseUrl: lb.url, apiKey: KEY }).chat({ model: 'gpt-4o-mini', messages: [] });
    expect(r.content).toBe('All at once.');
  });

  it('reports a wrong key (401) with the server’s own words, the key it quotes masked', async () => {
    const lb = await fakeOpenAi(() => undefined);
    const p = createOpenAiProvider({ baseUrl: lb.url, apiKey: 'sk-wrong' });
    await expect(p.chat({ model: 'gpt-4o-mini', messages: [] })).rejects.toMatchObject({
      kind: 'http',
      status: 401,
      message: 'The OpenAI-compatible server answered 401: Incorrect API key provided: ••••.',
    });
    expect(await p.listModels()).toEqual([]);
    expect(await p.probe()).toMatchObject({ status: 'unavailable', detail: expect.stringContaining('401') });
  });

  it('rejects a malformed event and an error event', async () => {
    let mode = 'garbage';
    const lb = await fakeOpenAi((res) => {
      sse(res);
      res.end(
        mode === 'garbage'
          ? delta('ok') + 'data: {"choices": [\n\n'
          : delta('ok') + `data: ${JSON.stringify({ error: { message: 'context length exceeded' } })}\n\n`,
      );
    });
    const p = createOpenAiProvider({ baseUrl: lb.url, apiKey: KEY });
    await expect(p.chat({ model: 'gpt-4o-mini', messages: [] })).rejects.toMatchObject({
      kind: 'malformed',
      message: expect.stringContaining('unreadable stream event'),
    });
    mode = 'error';
    await expect(p.chat({ model: 'gpt-4o-mini', messages: [] })).rejects.toThrow(
      'The OpenAI-compatible server failed while answering: context length exceeded',
    );
  });

  it('times out a slow server and stops on the caller’s abort', async () => {
    const lb = await fakeOpenAi(async (res) => {
      sse(res);
      res.write(delta('slow'));
      await sleep(3000);
      res.end();
    });
    const p = createOpenAiProvider({ baseUrl: lb.url, apiKey: KEY, timeoutMs: 200 });
    await expect(p.chat({ model: 'gpt-4o-mini', messages: [] })).rejects.toMatchObject({
      kind: 'timeout',
      message: `The OpenAI-compatible server at ${lb.url} did not answer within 0.2 s`,
    });
    const ac = new AbortController();
    const call = createOpenAiProvider({ baseUrl: lb.url, apiKey: KEY }).chat({
      model: 'gpt-4o-mini',
      messages: [],
      signal: ac.signal,
    });
    setTimeout(() => ac.abort(), 50);
    await expect(call).rejects.toMatchObject({ name: 'AbortError' });
  });

  it('says when the server is not reachable', async () => {
    const url = await closedPort();
    const p = createOpenAiProvider({ baseUrl: url });
    expect(await p.listModels()).toEqual([]);
    await expect(p.chat({ model: 'gpt-4o-mini', messages: [] })).rejects.toThrow(
      `The OpenAI-compatible server at ${url} is not reachable (ECONNREFUSED)`,
    );
  });
});
