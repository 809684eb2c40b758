import type { ServerResponse } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createOfflineProvider } from '../../../server/providers';
import { createOllamaProvider } from '../../../server/providers/llm/ollama';
import { createOpenAiProvider } from '../../../server/providers/llm/openai';
import type { LlmProvider, LlmRegistry } from '../../../server/providers/types';
import { toolsConfigFrom } from '../../../server/tools/config';
import { DEFAULT_TUNING, tuneEngine } from '../../../server/engine/hooks';
import { startLoopback, type Recorded } from '../../support/loopback';
import { startTestServer, type TestServer } from '../harness';
import { openDiscussion, sessionId, testProviders } from '../engine/helpers';
import { SECRET, startFakeMcp, type FakeMcp } from './fakeMcp';

// The call loop of a turn (docs/tools.md#the-call-loop) against the real server: a loopback MCP server built with
// the SDK, and loopback model servers speaking OpenAI's and Ollama's tool protocols exactly. Each fake model asks
// for the tool named in `wants` while no tool answer is in its messages, then answers with what the tool said.

const RESULT_CAP = 4_096;
let wants: { tool: string; args: Record<string, unknown> } = { tool: 'lookup_code', args: { name: 'Ada' } };

const turnJson = (content: string) =>
  JSON.stringify({ content, stance: 'support', confidence: 0.8, argument_type: 'proposal' });
/** The chat requests a fake model received after the `from`th request (its model listing left out). */
const chats = (requests: Recorded[], from: number) =>
  requests
    .slice(from)
    .filter((r) => r.method === 'POST')
    .map((r) => r.json());
const lastToolMessage = (body: any) => [...(body.messages as any[])].reverse().find((m) => m.role === 'tool');
const heard = (body: any) => {
  const m = lastToolMessage(body);
  return m ? `The tool said: ${String(m.content).match(/ZEBRA-[\w-]+|42|Error: [^\n]*/)?.[0] ?? 'something'}.` : '';
};

function sse(res: ServerResponse, events: object[]) {
  res.writeHead(200, { 'content-type': 'text/event-stream' });
  for (const e of events) res.write(`data: ${JSON.stringify(e)}\n\n`);
  res.end('data: [DONE]\n\n');
}

async function fakeOpenAi() {
  return startLoopback((req: Recorded, res) => {
    const body = req.json();
    const offered = (body.tools ?? []).map((t: any) => t.function.name);
    if (offered.includes(wants.tool) && !lastToolMessage(body)) {
      const args = JSON.stringify(wants.args);
      // The call streamed in pieces, as OpenAI does: id and name first, the arguments' text in two parts.
      return sse(res, [
        {
          choices: [
            { delta: { tool_calls: [{ index: 0, id: 'call_abc', function: { name: wants.tool, arguments: '' } }] } },
          ],
        },
        { choices: [{ delta: { tool_calls: [{ index: 0, function: { arguments: args.slice(0, 5) } }] } }] },
        {
          choices: [
            {
              delta: { tool_calls: [{ index: 0, function: { arguments: args.slice(5) } }] },
              finish_reason: 'tool_calls',
            },
          ],
        },
      ]);
    }
    return sse(res, [{ choices: [{ delta: { content: turnJson(heard(body) || 'No tool this time.') } }] }]);
  });
}

async function fakeOllama() {
  return startLoopback((req: Recorded, res) => {
    const body = req.json();
    const offered = (body.tools ?? []).map((t: any) => t.function.name);
    res.writeHead(200, { 'content-type': 'application/x-ndjson' });
    if (offered.includes('calculator') && !lastToolMessage(body)) {
      res.write(
        `${JSON.stringify({ message: { role: 'assistant', content: '', tool_calls: [{ function: { name: 'calculator', arguments: { expression: '6 * 7' } } }] }, done: false })}\n`,
      );
    } else
      res.write(`${JSON.stringify({ message: { role: 'assistant', content: turnJson(heard(body)) }, done: false })}\n`);
    res.end(`${JSON.stringify({ message: { role: 'assistant', content: '' }, done: true, eval_count: 3 })}\n`);
  });
}

describe('the call loop in a turn', () => {
  let t: TestServer;
  let mcp: FakeMcp;
  let openai: Awaited<ReturnType<typeof fakeOpenAi>>;
  let ollama: Awaited<ReturnType<typeof fakeOllama>>;
  let token: string;
  let connId: string;
  /** The second speaker every discussion needs: the offline model, with no tools. */
  let plain: string;

  beforeAll(async () => {
    [mcp, openai, ollama] = await Promise.all([startFakeMcp(), fakeOpenAi(), fakeOllama()]);
    const openaiProvider = createOpenAiProvider({ baseUrl: openai.url });
    const providers: Record<string, LlmProvider> = {
      openai: openaiProvider,
      ollama: createOllamaProvider({ host: ollama.url }),
      offline: createOfflineProvider(),
      // The same server through a provider that cannot offer tools.
      toolless: { ...openaiProvider, id: 'toolless', label: 'No-tools server', toolCalling: false },
    };
    const pick = (m: string) =>
      m.startsWith('llama')
        ? providers.ollama
        : m === 'offline'
          ? providers.offline
          : m.startsWith('plain-')
            ? providers.toolless
            : providers.openai;
    const llm: LlmRegistry = { listModels: async () => [], forModel: pick, probe: () => providers.openai.probe() };
    t = await startTestServer(
      { tools: toolsConfigFrom({ TOOL_CALL_TIMEOUT_MS: '1500', TOOL_RESULT_MAX_BYTES: String(RESULT_CAP) }) },
      { providers: testProviders({ llm }) },
    );
    ({ token } = await t.register());
    const add = await t.api('POST', '/tool-connections', {
      token,
      body: { kind: 'mcp', name: 'Codes', base_url: mcp.url },
    });
    expect(add.status).toBe(201);
    connId = add.body.id;
    const p = await t.api('POST', '/agents/', {
      token,
      body: { name: 'Bo', role: 'Economist', prompt: 'You weigh costs.', model: 'offline' },
    });
    plain = p.body.id;
  });
  afterAll(() => Promise.all([t.close(), mcp.close(), openai.close(), ollama.close()]));

  const agentWith = async (model: string, tools: string[], ask = false) => {
    const a = await t.api('POST', '/agents/', {
      token,
      body: { name: 'Ada', role: 'Analyst', prompt: 'You check figures.', model },
    });
    const p = await t.api('PATCH', `/agents/${a.body.id}`, { token, body: { tools, ask_before_tools: ask } });
    expect(p.status).toBe(200);
    expect(p.body).toMatchObject({ tools, ask_before_tools: ask });
    return a.body.id as string;
  };
  const run = async (agentId: string, topic = 'What is the code for Ada?') =>
    openDiscussion(t, '/ws/discuss', token, {
      agent_ids: [agentId, plain],
      session_id: sessionId('tools'),
      context: topic,
      turns: 2,
      mode: 'sequential',
    });
  const turnText = (frames: any[]) =>
    frames.find((f) => f.type === 'text' && f.from_id && f.from_id !== plain)?.text ?? '';

  it('OpenAI protocol: the MCP server hears the call, the next request holds the result under the same id, frames in order', async () => {
    wants = { tool: 'lookup_code', args: { name: 'Ada' } };
    const agentId = await agentWith('gpt-fake', [`${connId}/lookup_code`, 'builtin/calculator']);
    const before = openai.requests.length;
    mcp.calls.length = 0;
    const c = await run(agentId);
    await c.waitClose(20_000);

    expect(mcp.calls).toEqual([{ name: 'lookup_code', args: { name: 'Ada' } }]);
    const asked = chats(openai.requests, before);
    // Only the agent's own tools are offered: never `hang` or `huge`, which it was not given.
    expect(asked[0].tools.map((x: any) => x.function.name).sort()).toEqual(['calculator', 'lookup_code']);
    const second = asked[1];
    const assistant = second.messages.find((m: any) => m.tool_calls);
    expect(assistant.tool_calls[0]).toMatchObject({ id: 'call_abc', function: { name: 'lookup_code' } });
    const tool = lastToolMessage(second);
    expect(tool.tool_call_id).toBe('call_abc');
    expect(tool.content).toContain(SECRET);
    expect(tool.content).toMatch(/trust="untrusted"[\s\S]*not instructions/);
    // A result is data in its own message, never in the system prompt.
    expect(second.messages.filter((m: any) => m.role === 'system').some((m: any) => m.content.includes(SECRET))).toBe(
      false,
    );

    const types = c.kept.map((f) => f.type);
    const call = c.kept.find((f) => f.type === 'tool_call');
    const result = c.kept.find((f) => f.type === 'tool_result');
    expect(call).toMatchObject({ agent_id: agentId, tool: 'lookup_code', server: connId, arguments: { name: 'Ada' } });
    expect(call.needs_approval).toBeUndefined();
    expect(result).toMatchObject({ id: call.id, ok: true, truncated: false });
    expect(result.content).toContain(SECRET);
    expect(types.indexOf('tool_call')).toBeLessThan(types.indexOf('tool_result'));
    const textAt = c.kept.findIndex((f) => f.type === 'text' && f.from_id === agentId);
    expect(types.indexOf('tool_result')).toBeLessThan(textAt);
    expect(turnText(c.kept)).toContain(SECRET);
    expect(c.invalid).toEqual([]);

    // History keeps the calls.
    const sid = c.kept.find((f) => f.type === 'discussion_started').session_id;
    const stored = await t.api('GET', `/discussion/${sid}`, { token });
    expect(stored.status).toBe(200);
    expect(JSON.stringify(stored.body)).toContain('"tool_result"');
  });

  it('a model that cannot take tools answers without them; the panel is told once, naming the agent and the turn', async () => {
    const agentId = await agentWith('plain-model', ['builtin/calculator']);
    const before = openai.requests.length;
    const c = await run(agentId);
    await c.waitClose(20_000);
    expect(chats(openai.requests, before).every((b) => !b.tools)).toBe(true);
    const notes = c.kept.filter((f) => f.about === 'tools_unsupported');
    expect(notes).toHaveLength(1);
    const turn = c.kept.find((f) => f.type === 'text' && f.from_id === agentId);
    // The standard panel has no system line: a non-fatal error with the same fields.
    expect(notes[0]).toMatchObject({ type: 'error', fatal: false, agent_id: agentId, message_id: turn.id });
    expect(notes[0].message).toContain('No-tools server');
    expect(c.invalid).toEqual([]);
  });

  it('a tool that hangs is timed out (and cancelled on the MCP server); the turn goes on', async () => {
    wants = { tool: 'hang', args: {} };
    const agentId = await agentWith('gpt-fake', [`${connId}/hang`]);
    const c = await run(agentId);
    const result = await c.waitType('tool_result', 15_000);
    expect(result).toMatchObject({ ok: false, error: 'No answer within 2 s' });
    await c.waitClose(20_000);
    expect(turnText(c.kept)).toContain('Error: No answer');
    await expect.poll(() => mcp.cancelled.length, { timeout: 5_000 }).toBeGreaterThan(0);
  });

  it('a 10 MB result is cut at TOOL_RESULT_MAX_BYTES and marked', async () => {
    wants = { tool: 'huge', args: {} };
    // Ten megabytes take a while to cross on a busy machine; the time limit is not what this test is about.
    t.server.ctx.config.tools.callTimeoutMs = 30_000;
    const agentId = await agentWith('gpt-fake', [`${connId}/huge`]);
    const before = openai.requests.length;
    const c = await run(agentId);
    const result = await c.waitType('tool_result', 15_000);
    expect(result).toMatchObject({ ok: true, truncated: true });
    expect(Buffer.byteLength(result.content)).toBeLessThanOrEqual(RESULT_CAP);
    await c.waitClose(20_000);
    const tool = lastToolMessage(chats(openai.requests, before)[1]);
    expect(tool.content.length).toBeLessThan(RESULT_CAP + 500);
    expect(tool.content).toContain('cut at its size limit');
    t.server.ctx.config.tools.callTimeoutMs = 1_500;
  });

  it('approval denied: the MCP server never hears the call; approved: it does', async () => {
    wants = { tool: 'lookup_code', args: { name: 'Bo' } };
    const agentId = await agentWith('gpt-fake', [`${connId}/lookup_code`], true);
    mcp.calls.length = 0;
    const c = await run(agentId);
    const call = await c.waitType('tool_call', 15_000);
    expect(call.needs_approval).toBe(true);
    c.send({ type: 'tool_approval', id: call.id, approve: false });
    const result = await c.waitType('tool_result', 15_000);
    expect(result).toMatchObject({ ok: false, error: 'The person refused this call' });
    await c.waitClose(20_000);
    expect(mcp.calls).toEqual([]);

    const again = await run(agentId);
    const call2 = await again.waitType('tool_call', 15_000);
    again.send({ type: 'tool_approval', id: call2.id, approve: true });
    expect(await again.waitType('tool_result', 15_000)).toMatchObject({ ok: true });
    await again.waitClose(20_000);
    expect(mcp.calls).toEqual([{ name: 'lookup_code', args: { name: 'Bo' } }]);
  });

  it("the person's time to decide is not the model's: a turn waits past its time limit for Run, and fails only at the approval limit", async () => {
    wants = { tool: 'lookup_code', args: { name: 'Cy' } };
    const agentId = await agentWith('gpt-fake', [`${connId}/lookup_code`], true);
    tuneEngine(t.server.ctx, { turnTimeoutMs: 1_500, approvalTimeoutMs: 60_000 });
    try {
      const c = await run(agentId);
      const call = await c.waitType('tool_call', 15_000);
      // Longer than the turn may take: the clock is stopped while the person decides.
      await new Promise((r) => setTimeout(r, 2_500));
      c.send({ type: 'tool_approval', id: call.id, approve: true });
      expect(await c.waitType('tool_result', 15_000)).toMatchObject({ ok: true });
      await c.waitClose(20_000);
      expect(turnText(c.frames)).toContain('ZEBRA');
      expect(JSON.stringify(c.frames)).not.toContain('timed out');

      tuneEngine(t.server.ctx, { turnTimeoutMs: 60_000, approvalTimeoutMs: 1_000 });
      mcp.calls.length = 0;
      const unanswered = await run(agentId);
      await unanswered.waitType('tool_call', 15_000);
      await unanswered.waitClose(20_000);
      expect(JSON.stringify(unanswered.frames)).toContain('No Run or Refuse for the tool call within');
      expect(mcp.calls).toEqual([]);
    } finally {
      tuneEngine(t.server.ctx, {
        turnTimeoutMs: DEFAULT_TUNING.turnTimeoutMs,
        approvalTimeoutMs: DEFAULT_TUNING.approvalTimeoutMs,
      });
    }
  });

  it('Stop during a call ends it', async () => {
    wants = { tool: 'hang', args: {} };
    t.server.ctx.config.tools.callTimeoutMs = 60_000;
    try {
      const agentId = await agentWith('gpt-fake', [`${connId}/hang`]);
      const cancelled = mcp.cancelled.length;
      const heard = mcp.calls.length;
      const c = await run(agentId);
      await c.waitType('tool_call', 15_000);
      // Stopped once the MCP server is running the call (a Stop while connecting never reaches it at all).
      await expect.poll(() => mcp.calls.length, { timeout: 10_000 }).toBeGreaterThan(heard);
      const stopAt = Date.now();
      c.send({ type: 'stop' });
      await c.waitClose(10_000);
      expect(Date.now() - stopAt).toBeLessThan(8_000);
      await expect.poll(() => mcp.cancelled.length, { timeout: 5_000 }).toBeGreaterThan(cancelled);
    } finally {
      t.server.ctx.config.tools.callTimeoutMs = 1_500;
    }
  });

  it('refuses a tool id that is not in the catalog', async () => {
    const a = await t.api('POST', '/agents/', {
      token,
      body: { name: 'Cy', role: 'R', prompt: 'P', model: 'offline' },
    });
    const p = await t.api('PATCH', `/agents/${a.body.id}`, { token, body: { tools: ['builtin/rm_rf'] } });
    expect(p.status).toBe(422);
    expect(p.body.detail).toMatch(/No such tool among yours: builtin\/rm_rf/);
  });

  it("Ollama's protocol: tools offered, the call answered by a `tool` message naming the tool", async () => {
    const agentId = await agentWith('llama-fake', ['builtin/calculator']);
    const before = ollama.requests.length;
    const c = await run(agentId);
    await c.waitClose(20_000);
    const asked = chats(ollama.requests, before);
    expect(asked[0].tools.map((x: any) => x.function.name)).toEqual(['calculator']);
    expect(asked[1].messages.find((m: any) => m.tool_calls)).toMatchObject({
      tool_calls: [{ function: { name: 'calculator', arguments: { expression: '6 * 7' } } }],
    });
    expect(lastToolMessage(asked[1])).toMatchObject({ role: 'tool', tool_name: 'calculator' });
    expect(c.kept.find((f) => f.type === 'tool_result')).toMatchObject({ ok: true, content: '42' });
    expect(turnText(c.kept)).toContain('42');
  });

  it('the demo model calls the calculator once on a number in the topic and uses the result', async () => {
    const agentId = await agentWith('offline', ['builtin/calculator']);
    const c = await run(agentId, 'Is 12 rows of 3.5 metres enough?');
    await c.waitClose(20_000);
    const calls = c.kept.filter((f) => f.type === 'tool_call');
    expect(calls).toHaveLength(1);
    expect(calls[0]).toMatchObject({ tool: 'calculator', server: 'builtin', arguments: { expression: '12 * 3.5' } });
    expect(c.kept.find((f) => f.type === 'tool_result')).toMatchObject({ ok: true, content: '42' });
    expect(turnText(c.kept)).toContain('By the calculator, 12 × 3.5 = 42.');
  });
});
