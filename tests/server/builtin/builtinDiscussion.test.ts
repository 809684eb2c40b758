import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLlmRegistry } from '../../../server/providers';
import { createBuiltinProvider, type BuiltinProvider } from '../../../server/providers/llm/builtin';
import { createOfflineProvider } from '../../../server/providers/llm/offline';
import { startTestServer, type TestServer } from '../harness';
import { openDiscussion, sessionId, testProviders } from '../engine/helpers';
import { orderProblems, streamProblems } from '../engine/frameOrder';
import { writeTinyGguf } from '../../support/tinyGguf';

// A discussion whose agents run on the built-in engine (tiny random GGUFs): the turn streams through the
// engine's delta path into the socket, a turn whose JSON never completes is a clear error frame (the server
// carries on), and Stop aborts a turn being written.

let dir: string;
let builtin: BuiltinProvider;
let s: TestServer;
let token: string;
const agents: Record<string, string> = {};

beforeAll(async () => {
  dir = mkdtempSync(path.join(tmpdir(), 'agora-builtin-discuss-'));
  writeTinyGguf(path.join(dir, 'closer.gguf'), { prefer: ['"', '}', ']', '0'], preferStrength: 12 });
  // Writes 'a' for ever: its content string never closes.
  writeTinyGguf(path.join(dir, 'endless.gguf'), { prefer: ['a'], preferStrength: 30, avoid: [2], seed: 5 });
  builtin = createBuiltinProvider({
    modelsDir: dir,
    threads: 1,
    contextSize: 2048,
    parallel: 2,
    idleUnloadMs: 0,
    gpu: false,
  });
  const llm = createLlmRegistry([builtin, createOfflineProvider()]);
  await llm.listModels();
  s = await startTestServer({}, { providers: testProviders({ llm }) });
  ({ token } = await s.register());
  for (const [name, model] of [
    ['Ada', 'builtin:closer.gguf'],
    ['Bo', 'builtin:endless.gguf'],
  ]) {
    const r = await s.api('POST', '/agents/', {
      token,
      body: { name, role: 'Planner', prompt: 'You plan cities.', model, personality: 'analytical' },
    });
    agents[name] = String(r.body.id);
  }
});
afterAll(async () => {
  await s.close();
  await builtin.unload();
  rmSync(dir, { recursive: true, force: true });
});

const config = (tag: string, ids: string[], extra: object = {}) => ({
  agent_ids: ids,
  session_id: sessionId(tag),
  context: 'Should the city build a tram line?',
  turns: ids.length,
  ...extra,
});

describe('a discussion on the built-in engine', () => {
  it('streams a turn as deltas into the socket, and a turn that never became JSON is a clear error frame', async () => {
    const c = await openDiscussion(
      s,
      '/ws/discuss',
      token,
      config('builtin', [agents.Ada, agents.Bo], { max_tokens: 120 }),
    );
    expect((await c.waitClose(60_000)).code).toBe(1000);
    expect(c.invalid).toEqual([]);
    expect(streamProblems(c.frames)).toEqual([]);
    expect(orderProblems(c.kept)).toEqual([]);
    const ada = c.frames.find((f) => f.type === 'text' && f.from === 'Ada');
    expect(ada.text.length).toBeGreaterThan(0);
    expect(c.frames.some((f) => f.type === 'agent_message_delta' && f.id === ada.id)).toBe(true);
    const error = c.frames.find((f) => f.type === 'error');
    expect(error.message).toMatch(
      /^Bo could not answer: The built-in model's answer reached the \d+-token limit before its JSON was complete/,
    );
  }, 90_000);

  it('stops a turn being written', async () => {
    const c = await openDiscussion(
      s,
      '/ws/discuss',
      token,
      config('builtin-stop', [agents.Bo, agents.Ada], { max_tokens: 4000 }),
    );
    await c.waitFor(() => c.frames.filter((f) => f.type === 'agent_message_delta').length >= 2, 60_000);
    c.send({ type: 'stop' });
    await c.waitClose(20_000);
    expect(c.frames.at(-1)).toMatchObject({ type: 'discussion_ended', reason: 'stopped' });
    expect(c.frames.find((f) => f.type === 'text')).toMatchObject({ interrupted: true, from: 'Bo' });
  }, 90_000);
});
