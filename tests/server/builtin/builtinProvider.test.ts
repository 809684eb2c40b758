import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { TURN_ANSWER_JSON_SCHEMA } from '../../../server/engine/prompt';
import { parseTurnAnswer } from '../../../server/engine/answer';
import { ProviderError } from '../../../server/providers/errors';
import { createBuiltinProvider, type BuiltinProvider } from '../../../server/providers/llm/builtin';
import { tinyGguf, writeTinyGguf } from '../../support/tinyGguf';

// The built-in engine on a tiny random-weight GGUF the suite writes itself: real llama.cpp, real grammar,
// real streaming. One thread: on a shared CI machine, llama.cpp's threads spin-wait and crawl.

const messages = [
  { role: 'system' as const, content: 'You are Basil, a city planner.' },
  { role: 'user' as const, content: 'Should the city build a tram line?' },
];

let dir: string;
let provider: BuiltinProvider;
const make = (over: Partial<Parameters<typeof createBuiltinProvider>[0]> = {}) =>
  createBuiltinProvider({
    modelsDir: dir,
    threads: 1,
    contextSize: 1024,
    parallel: 2,
    idleUnloadMs: 0,
    gpu: false,
    ...over,
  });

beforeAll(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'agora-builtin-'));
  // 'closer' favours the pieces that end JSON strings and objects, so its grammar-bound answers finish.
  writeTinyGguf(path.join(dir, 'closer.gguf'), { prefer: ['"', '}', ']', '0'], preferStrength: 12 });
  // 'rambler' never picks '</s>' (id 2): a random-weight model may otherwise end an answer at its first piece.
  writeTinyGguf(path.join(dir, 'rambler.gguf'), { seed: 7, avoid: [2] });
  provider = make();
});
afterAll(async () => {
  await provider.unload();
  rmSync(dir, { recursive: true, force: true });
});

describe('tiny GGUF fixture', () => {
  it('is a GGUF v3 file of about half a megabyte, written quickly', () => {
    const t = performance.now();
    const bytes = tinyGguf();
    const ms = performance.now() - t;
    expect(bytes.subarray(0, 4).toString('ascii')).toBe('GGUF');
    expect(bytes.readUInt32LE(4)).toBe(3);
    expect(bytes.length).toBeGreaterThan(300_000);
    expect(bytes.length).toBeLessThan(800_000);
    expect(ms).toBeLessThan(1000);
  });
});

describe('built-in provider', () => {
  it('lists the GGUF files of its directory as builtin: models', async () => {
    const models = await provider.listModels();
    expect(models.map((m) => m.name)).toEqual(['builtin:closer.gguf', 'builtin:rambler.gguf']);
    expect(models[0]).toMatchObject({ provider: 'builtin', label: 'closer (Built-in)' });
    expect(provider.owns('builtin:closer.gguf')).toBe(true);
    expect(provider.owns('llama3')).toBe(false);
  });

  it('loads a model, streams its reply, and the pieces make the whole answer', async () => {
    const pieces: string[] = [];
    const res = await provider.chat({
      model: 'builtin:rambler.gguf',
      messages,
      maxTokens: 24,
      temperature: 0.8,
      onToken: (p) => pieces.push(p),
    });
    expect(res.provider).toBe('builtin');
    expect(pieces.length).toBeGreaterThan(1);
    expect(pieces.join('')).toBe(res.content);
    expect(provider.loaded()).toContain('rambler.gguf');
  });

  it('asks for the turn-answer schema through the grammar and bounds the numbers itself', async () => {
    const res = await provider.chat({
      model: 'builtin:closer.gguf',
      messages,
      maxTokens: 300,
      temperature: 0.7,
      jsonSchema: TURN_ANSWER_JSON_SCHEMA,
    });
    const obj = JSON.parse(res.content);
    expect(Object.keys(obj)).toEqual(['content', 'stance', 'confidence', 'argument_type']);
    expect(['support', 'oppose', 'neutral']).toContain(obj.stance);
    expect(typeof obj.confidence).toBe('number');
    expect(obj.confidence).toBeGreaterThanOrEqual(0);
    expect(obj.confidence).toBeLessThanOrEqual(1);
    expect(obj.content.length).toBeGreaterThan(0);
    expect(parseTurnAnswer(res.content).stance).toBe(obj.stance);
  });

  it('gives a clear error, not a crash, for an answer that never became JSON', async () => {
    const err = await provider
      .chat({
        model: 'builtin:rambler.gguf',
        messages,
        maxTokens: 12,
        temperature: 1,
        jsonSchema: TURN_ANSWER_JSON_SCHEMA,
      })
      .catch((e) => e);
    expect(err).toBeInstanceOf(ProviderError);
    expect(err.kind).toBe('malformed');
    expect(err.message).toMatch(/12-token limit before its JSON was complete/);
  });

  // Aborted at the first piece: a random-weight model may end its answer after two or three.
  it('stops when the signal aborts, mid-stream', async () => {
    const ac = new AbortController();
    let seen = 0;
    const err = await provider
      .chat({
        model: 'builtin:rambler.gguf',
        messages,
        maxTokens: 2000,
        temperature: 1,
        signal: ac.signal,
        onToken: () => ++seen === 1 && ac.abort(),
      })
      .catch((e) => e);
    expect(err).toBeInstanceOf(ProviderError);
    expect(err.name).toBe('AbortError');
    expect(seen).toBeLessThan(50);
  });

  it('answers two agents at once from one loaded model, and a third waits for a free sequence', async () => {
    const ask = (n: number) =>
      provider.chat({
        model: 'builtin:rambler.gguf',
        messages: [...messages, { role: 'user', content: `Agent ${n}` }],
        maxTokens: 16,
        temperature: 0.9,
      });
    const results = await Promise.all([ask(1), ask(2), ask(3)]);
    expect(results.every((r) => r.provider === 'builtin')).toBe(true);
    expect(provider.loaded().filter((f) => f === 'rambler.gguf')).toHaveLength(1);
  });

  it('says which model is missing, and never the server’s folder (a turn error every user reads)', async () => {
    await expect(provider.chat({ model: 'builtin:nope.gguf', messages })).rejects.toThrow(/has no model "nope.gguf"/);
    await expect(provider.chat({ model: 'builtin:../etc/passwd', messages })).rejects.toThrow(/has no model/);
    const why = await provider.chat({ model: 'builtin:nope.gguf', messages }).catch((e: Error) => e.message);
    expect(why).not.toContain(dir);
    expect(why).toContain("ask the server's operator to add a model file");
    const empty = mkdtempSync(path.join(tmpdir(), 'agora-builtin-empty-'));
    try {
      const status = await make({ modelsDir: empty }).probe();
      expect(status.detail).not.toContain(empty);
    } finally {
      rmSync(empty, { recursive: true, force: true });
    }
  });

  it('unloads a model nobody used for the idle time', async () => {
    const idle = make({ idleUnloadMs: 150 });
    await idle.chat({ model: 'builtin:closer.gguf', messages, maxTokens: 4 });
    expect(idle.loaded()).toEqual(['closer.gguf']);
    await vi.waitFor(() => expect(idle.loaded()).toEqual([]), { timeout: 5_000, interval: 20 });
  });
});
