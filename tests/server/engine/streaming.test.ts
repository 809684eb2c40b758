// Why this file: a turn is streamed from the model to the socket (agent_message_start, coalesced
// agent_message_delta, then the final frame with the same id). These tests run the real server against loopback
// fakes of Ollama (NDJSON) and an OpenAI-compatible server (SSE) that stream slowly, stall, break off and send a
// broken final JSON, and check what the panel sees: deltas in order, final text equal to them, a stop that
// aborts the model call at once and closes the message as interrupted, and a clear error when the stream breaks.
import type { ServerResponse } from 'node:http';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { tuneEngine } from '../../../server/engine/hooks';
import { createLlmRegistry } from '../../../server/providers';
import { createOllamaProvider } from '../../../server/providers/llm/ollama';
import { createOpenAiProvider } from '../../../server/providers/llm/openai';
import { startTestServer, type TestServer } from '../harness';
import { sendJson, sleep, startLoopback } from '../../support/loopback';
import { openDiscussion, sessionId, testProviders } from './helpers';
import { orderProblems, streamProblems } from './frameOrder';

type Script = (res: ServerResponse, signal: { closedAt: number | null }) => Promise<void>;
let script: Script = async () => {};
const closes: Array<{ closedAt: number | null }> = [];

const REPLY = 'Drip lines save water, but the pumps need checking first.';
const json = (content: string) =>
  JSON.stringify({
    content,
    stance: 'support',
    confidence: 0.7,
    argument_type: 'support',
    reasoning: [],
    evidence: [],
  });
/** The reply as a model writes it: the JSON cut into small pieces (a few characters, like tokens). */
const pieces = (text: string, size = 6) =>
  Array.from({ length: Math.ceil(text.length / size) }, (_, i) => text.slice(i * size, i * size + size));

const ndjson = (content: string, done = false) =>
  JSON.stringify({ model: 'llama3.2:latest', message: { role: 'assistant', content }, done }) + '\n';
const sseChunk = (content: string) =>
  `data: ${JSON.stringify({ choices: [{ index: 0, delta: { content }, finish_reason: null }] })}\n\n`;

let lb: Awaited<ReturnType<typeof startLoopback>>;
let s: TestServer;
let token: string;
let agentIds: string[];

beforeAll(async () => {
  lb = await startLoopback(async (req, res) => {
    if (req.url === '/api/tags') return sendJson(res, 200, { models: [{ name: 'llama3.2:latest' }] });
    if (req.url === '/v1/models') return sendJson(res, 200, { data: [{ id: 'gpt-fake' }] });
    const watch = { closedAt: null as number | null };
    closes.push(watch);
    res.on('close', () => (watch.closedAt = performance.now()));
    await script(res, watch);
  });
  const llm = createLlmRegistry([
    createOllamaProvider({ host: lb.url }),
    createOpenAiProvider({ baseUrl: `${lb.url}/v1` }),
  ]);
  await llm.listModels();
  s = await startTestServer({}, { providers: testProviders({ llm }) });
  ({ token } = await s.register());
  agentIds = [];
  for (const [name, model] of [
    ['Ada', 'llama3.2:latest'],
    ['Bo', 'gpt-fake'],
  ]) {
    const r = await s.api('POST', '/agents/', {
      token,
      body: { name, role: 'Agronomist', prompt: 'You study vineyards.', model, personality: 'analytical' },
    });
    agentIds.push(String(r.body.id));
  }
});
afterAll(async () => {
  await s.close();
  await lb.close();
});
afterEach(() => {
  tuneEngine(s.server.ctx, { turnTimeoutMs: 120_000 });
  closes.length = 0;
});

/** Streams `text` in pieces, `gapMs` apart, in the dialect the request came in (NDJSON or SSE), then ends it. */
function streamReply(text: string, gapMs: number, opts: { finish?: boolean } = {}): Script {
  return async (res, watch) => {
    const sse = !(res.req.url ?? '').startsWith('/api/');
    res.writeHead(200, { 'content-type': sse ? 'text/event-stream' : 'application/x-ndjson' });
    for (const p of pieces(text)) {
      if (watch.closedAt !== null) return;
      res.write(sse ? sseChunk(p) : ndjson(p));
      await sleep(gapMs);
    }
    if (opts.finish === false) return void res.destroy();
    res.end(sse ? 'data: [DONE]\n\n' : ndjson('', true));
  };
}

const basic = (tag: string, turns = 2) => ({
  agent_ids: agentIds,
  session_id: sessionId(tag),
  context: 'Should vineyards adopt drip irrigation?',
  turns,
});
const streamOf = (frames: any[], id: string) => frames.filter((f) => f.type === 'agent_message_delta' && f.id === id);

describe('streamed turns from real model protocols', () => {
  it('Ollama (NDJSON) and OpenAI-compatible (SSE): start, coalesced deltas in order, final text equal to them', async () => {
    script = streamReply(json(REPLY), 8);
    const c = await openDiscussion(s, '/ws/discuss', token, basic('stream'));
    expect((await c.waitClose(20_000)).code).toBe(1000);
    expect(c.invalid).toEqual([]);
    expect(orderProblems(c.kept)).toEqual([]);
    expect(streamProblems(c.frames)).toEqual([]);
    const texts = c.frames.filter((f) => f.type === 'text');
    expect(texts.map((t) => t.from)).toEqual(['Ada', 'Bo']);
    for (const t of texts) {
      expect(t.text).toBe(REPLY);
      const start = c.frames.findIndex((f) => f.type === 'agent_message_start' && f.id === t.id);
      expect(c.frames[start]).toMatchObject({ agent_id: t.from_id, agent_name: t.from });
      const deltas = streamOf(c.frames, t.id);
      // ~20 pieces 8 ms apart, coalesced to one frame per 50 ms: a few deltas, not twenty.
      expect(deltas.length).toBeGreaterThan(1);
      expect(deltas.length).toBeLessThan(10);
      expect(deltas.map((d) => d.delta).join('')).toBe(REPLY);
      expect(c.frames.indexOf(deltas[0])).toBeGreaterThan(start);
      expect(c.frames.indexOf(t)).toBeGreaterThan(c.frames.indexOf(deltas.at(-1)));
    }
  });

  it('stop during a stream aborts the model call within 100 ms and closes the message as interrupted', async () => {
    script = streamReply(json(REPLY.repeat(20)), 25);
    const c = await openDiscussion(s, '/ws/discuss', token, basic('stop'));
    await c.waitFor((f) => f.type === 'agent_message_delta');
    await c.waitFor(() => c.frames.filter((f) => f.type === 'agent_message_delta').length >= 2);
    const stoppedAt = performance.now();
    c.send({ type: 'stop' });
    await c.waitClose();
    const final = c.frames.find((f) => f.type === 'text');
    expect(final).toMatchObject({ interrupted: true, from: 'Ada' });
    expect(final.text).toBe(
      streamOf(c.frames, final.id)
        .map((d) => d.delta)
        .join(''),
    );
    expect(c.frames.at(-1)).toMatchObject({ type: 'discussion_ended', reason: 'stopped' });
    expect(streamProblems(c.frames)).toEqual([]);
    await vi.waitFor(() => expect(closes[0].closedAt).not.toBeNull(), { timeout: 2_000, interval: 5 });
    expect(closes[0].closedAt! - stoppedAt).toBeLessThan(100);
  });

  it('a broken final JSON and a stream cut off are clear error frames; the draft is closed as interrupted', async () => {
    let n = 0;
    script = async (res, watch) => {
      n++;
      if (n === 1) return streamReply(json(REPLY).slice(0, 40), 5)(res, watch); // ends "done" with half a JSON object
      return streamReply(json(REPLY), 5, { finish: false })(res, watch); // the connection drops mid-answer
    };
    const c = await openDiscussion(s, '/ws/discuss', token, basic('broken'));
    await c.waitClose();
    const errors = c.frames.filter((f) => f.type === 'error');
    expect(errors[0].message).toMatch(/^Ada could not answer: .*cut off or is not valid JSON/);
    expect(errors[1].message).toMatch(/^Bo could not answer: /);
    const finals = c.frames.filter((f) => f.type === 'text');
    expect(finals.every((f) => f.interrupted === true)).toBe(true);
    expect(streamProblems(c.frames)).toEqual([]);
    expect(orderProblems(c.kept)).toEqual([]);
  });

  it('a stalled stream times out the turn: the draft is closed, then the error', async () => {
    tuneEngine(s.server.ctx, { turnTimeoutMs: 300 });
    script = async (res, watch) => {
      res.writeHead(200, { 'content-type': 'application/x-ndjson' });
      res.write(ndjson('{"content":"I was about to say'));
      while (watch.closedAt === null) await sleep(10);
    };
    const c = await openDiscussion(s, '/ws/discuss', token, basic('stall'));
    await c.waitClose();
    const final = c.frames.find((f) => f.type === 'text');
    expect(final).toMatchObject({ interrupted: true, text: 'I was about to say' });
    expect(c.frames.find((f) => f.type === 'error').message).toMatch(/no answer within 300 ms/);
    expect(closes.every((w) => w.closedAt !== null)).toBe(true);
  });
});

describe('resume in the middle of a streamed turn', () => {
  it('the new socket gets the message in progress, its remaining deltas and the final frame: nothing lost, nothing doubled', async () => {
    const long = `${REPLY} ${REPLY} ${REPLY}`;
    script = streamReply(json(long), 15);
    const config = basic('resume-stream');
    const first = await openDiscussion(s, '/ws/discuss', token, config);
    const startFrame = await first.waitFor((f) => f.type === 'agent_message_start');
    await first.waitFor((f) => f.type === 'agent_message_delta');
    await first.delivered(); // so the replay starts exactly where this socket stopped
    first.ws.terminate();
    await first.waitClose();

    const second = await openDiscussion(s, '/ws/discuss', token, config);
    expect((await second.waitClose(20_000)).code).toBe(1000);
    expect(second.invalid).toEqual([]);
    // The second socket sees a whole stream for the message it joined: start (again), the rest, the final frame.
    expect(streamProblems(second.frames, { resumed: true })).toEqual([]);
    expect(second.frames.filter((f) => f.type === 'agent_message_start' && f.id === startFrame.id)).toHaveLength(1);
    const all = [...first.kept, ...second.kept];
    expect(orderProblems(all)).toEqual([]);
    const texts = all.filter((f) => f.type === 'text');
    expect(texts.map((t) => t.id)).toEqual([...new Set(texts.map((t) => t.id))]);
    expect(texts.map((t) => t.turn)).toEqual([1, 2]);
    const joined = texts.find((t) => t.id === startFrame.id);
    expect(joined.text).toBe(long);
    expect(
      long.startsWith(
        streamOf(first.frames, joined.id)
          .map((d) => d.delta)
          .join(''),
      ),
    ).toBe(true);
    expect(
      long.endsWith(
        streamOf(second.frames, joined.id)
          .map((d) => d.delta)
          .join(''),
      ),
    ).toBe(true);
    // Deltas were never stored: the history holds exactly the kept frames.
    const stored = (await s.api('GET', `/discussion/${config.session_id}`, { token })).body;
    expect(stored.frames.map((f: { data: any }) => f.data.type)).not.toContain('agent_message_delta');
  });
});
