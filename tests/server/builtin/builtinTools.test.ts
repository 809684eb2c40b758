import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TURN_ANSWER_JSON_SCHEMA } from '../../../server/engine/prompt';
import { createBuiltinProvider, type BuiltinProvider } from '../../../server/providers/llm/builtin';
import { callsOf, functionsOf, toHistory } from '../../../server/providers/llm/builtin/functions';
import type { ChatMessage, ChatRequest } from '../../../server/providers/types';
import { runCallLoop } from '../../../server/tools/callLoop';
import type { ReadyTool } from '../../../server/tools/types';
import { writeTinyGguf } from '../../support/tinyGguf';

// The call loop on the built-in engine (docs/tools.md#the-call-loop): the tools are offered as node-llama-cpp
// functions, a real llama.cpp generation on a tiny random GGUF calls one, and the same loop as OpenAI's and
// Ollama's runs it. The model is made to call: its vocabulary has the generic call syntax's '||call:' as one piece
// and favours it strongly, and from there node-llama-cpp's grammar holds it to a listed tool and its schema (an
// argument with one allowed value, so what the tool hears is known).

const messages: ChatMessage[] = [
  { role: 'system', content: 'You are Basil, a city planner.' },
  { role: 'user', content: 'Should the city build a tram line?' },
];

let dir: string;
let provider: BuiltinProvider;
let heard: Array<Record<string, unknown>>;
const lookup: ReadyTool = {
  id: 'test/lookup_code',
  server: 'test',
  name: 'lookup_code',
  description: 'The secret code of a person',
  inputSchema: { type: 'object', properties: { name: { type: 'string', enum: ['Ada'] } }, required: ['name'] },
  run: async (args) => {
    heard.push(args);
    return { content: 'ZEBRA-7431' };
  },
};

beforeAll(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'agora-builtin-tools-'));
  writeTinyGguf(path.join(dir, 'caller.gguf'), { extraPieces: ['||call:'], prefer: [['||call:', 30]], avoid: [2] });
  writeTinyGguf(path.join(dir, 'closer.gguf'), { prefer: ['"', '}', ']', '0'], preferStrength: 12 });
  provider = createBuiltinProvider({
    modelsDir: dir,
    threads: 1,
    contextSize: 2048,
    parallel: 2,
    idleUnloadMs: 0,
    gpu: false,
  });
});
afterAll(async () => {
  await provider.unload();
  rmSync(dir, { recursive: true, force: true });
});

function loop(over: { askFirst?: boolean; approve?: boolean } = {}) {
  const requests: ChatRequest[] = [];
  const frames: Array<Record<string, unknown>> = [];
  const run = runCallLoop({
    chat: (r) => {
      requests.push(r);
      return provider.chat(r);
    },
    request: { model: 'builtin:caller.gguf', messages, maxTokens: 80, temperature: 0.8 },
    tools: [lookup],
    agentId: 'a1',
    messageId: 'm1',
    askFirst: over.askFirst ?? false,
    limits: { callsPerTurn: 1, callTimeoutMs: 5_000, resultMaxBytes: 4_096 },
    signal: new AbortController().signal,
    emit: (f) => frames.push(f),
    approval: async () => over.approve ?? true,
    takeCall: () => true,
  });
  return { run, requests, frames };
}

describe('tools on the built-in engine', () => {
  it('offers the tools as functions; the model’s call runs through the call loop and its result reaches the model', async () => {
    heard = [];
    const { run, requests, frames } = loop();
    const res = await run;
    expect(provider.toolCalling).toBe(true);
    expect(heard).toEqual([{ name: 'Ada' }]);
    expect(frames.map((f) => f.type)).toEqual(['tool_call', 'tool_result']);
    expect(frames[0]).toMatchObject({
      id: 'm1-tool-1',
      agent_id: 'a1',
      tool: 'lookup_code',
      server: 'test',
      arguments: { name: 'Ada' },
    });
    expect(frames[1]).toMatchObject({ id: 'm1-tool-1', ok: true, content: 'ZEBRA-7431' });
    // The first request offered the tool; the next one holds the call and its answer, and offers no more.
    expect(requests[0].tools?.map((t) => t.name)).toEqual(['lookup_code']);
    expect(requests[1].tools).toBeUndefined();
    const answer = requests[1].messages.find((m) => m.role === 'tool');
    expect(answer?.content).toContain('ZEBRA-7431');
    expect(answer?.content).toContain('trust="untrusted"');
    // The model's words after the call are the turn (the call itself is not text of the turn).
    expect(res.toolCalls).toBeUndefined();
    expect(res.content).not.toContain('lookup_code(');
  });

  it('refused by the person, the tool never hears the call', async () => {
    heard = [];
    const { run, frames } = loop({ askFirst: true, approve: false });
    await run;
    expect(heard).toEqual([]);
    expect(frames[0]).toMatchObject({ type: 'tool_call', needs_approval: true });
    expect(frames[1]).toMatchObject({ type: 'tool_result', ok: false, error: 'The person refused this call' });
  });

  it('a turn that wants JSON and does not call is asked again under its grammar', async () => {
    const res = await provider.chat({
      model: 'builtin:closer.gguf',
      messages,
      maxTokens: 300,
      temperature: 0.7,
      jsonSchema: TURN_ANSWER_JSON_SCHEMA,
      tools: [{ name: 'lookup_code', description: 'x', parameters: lookup.inputSchema }],
    });
    expect(res.toolCalls).toBeUndefined();
    expect(Object.keys(JSON.parse(res.content))).toContain('content');
  });
});

describe('the built-in engine’s function format', () => {
  it('writes a call and its answer into the model’s own response, which the model continues', () => {
    const history = toHistory([
      ...messages,
      {
        role: 'assistant',
        content: 'Let me look.',
        toolCalls: [{ id: 'call_1', name: 'lookup_code', arguments: { name: 'Ada' } }],
      },
      { role: 'tool', toolCallId: 'call_1', toolName: 'lookup_code', content: '<tool_output>ZEBRA</tool_output>' },
      { role: 'assistant', content: '', toolCalls: [{ id: 'call_2', name: 'lookup_code', arguments: { name: 'Bo' } }] },
      { role: 'tool', toolCallId: 'call_2', toolName: 'lookup_code', content: 'LION' },
    ]);
    expect(history).toHaveLength(3);
    expect(history[2]).toEqual({
      type: 'model',
      response: [
        'Let me look.',
        {
          type: 'functionCall',
          name: 'lookup_code',
          params: { name: 'Ada' },
          result: '<tool_output>ZEBRA</tool_output>',
        },
        { type: 'functionCall', name: 'lookup_code', params: { name: 'Bo' }, result: 'LION' },
      ],
    });
  });

  it('numbers calls across the turn and reads untrusted arguments as an object', () => {
    const before: ChatMessage[] = [
      { role: 'assistant', content: '', toolCalls: [{ id: 'call_1', name: 'x', arguments: {} }] },
    ];
    expect(callsOf([{ functionName: 'x', params: 'not an object' }], before)).toEqual([
      { id: 'call_2', name: 'x', arguments: {} },
    ]);
  });

  it('drops the schema keywords the grammar cannot read', () => {
    const fns = functionsOf([
      {
        name: 'calc',
        description: 'Arithmetic',
        parameters: {
          $schema: 'x',
          properties: { expression: { type: 'string', default: '1' } },
          required: ['expression'],
        },
      },
    ]);
    expect(fns.calc).toEqual({
      description: 'Arithmetic',
      params: { type: 'object', properties: { expression: { type: 'string' } }, additionalProperties: false },
    });
  });
});

describe('a model that cannot take tools', () => {
  it('answers without them, and the call loop tells the panel once', async () => {
    let told = 0;
    const res = await runCallLoop({
      chat: async () => ({ content: 'Plain words.', model: 'm', provider: 'p', durationMs: 1, toolsUnsupported: true }),
      request: { model: 'm', messages },
      tools: [lookup],
      agentId: 'a1',
      messageId: 'm1',
      askFirst: false,
      limits: { callsPerTurn: 2, callTimeoutMs: 1_000, resultMaxBytes: 100 },
      signal: new AbortController().signal,
      emit: () => {},
      approval: async () => true,
      takeCall: () => true,
      unsupported: () => told++,
    });
    expect(told).toBe(1);
    expect(res).toMatchObject({ content: 'Plain words.' });
    expect(res.toolsUnsupported).toBeUndefined();
  });
});
