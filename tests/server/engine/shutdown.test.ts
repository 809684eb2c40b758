import { beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../harness';
import { makeAgents, offlineLlm, openDiscussion, sessionId, testProviders } from './helpers';

// A server that stops mid-discussion tells its watchers why, stores the last frames, and closes cleanly.
// (The server starts in beforeAll: on a busy machine its start alone can take most of a test's time budget.)
let s: TestServer;
beforeAll(async () => {
  s = await startTestServer(
    {},
    { providers: testProviders({ llm: offlineLlm(undefined, { tokensPerSecond: 5, thinkMs: 0 }) }) },
  );
});

describe('server shutdown during a discussion', () => {
  it('sends discussion_ended {reason: shutdown} and closes without a 1005/1006', async () => {
    const { token } = await s.register();
    const agentIds = await makeAgents(s, token);
    const live = await s.socket('/ws/updates', token);
    const liveClosed = new Promise<number>((r) => live.on('close', (code) => r(code)));
    const c = await openDiscussion(s, '/ws/discuss', token, {
      agent_ids: agentIds,
      session_id: sessionId('shutdown'),
      context: 'Plan the harvest.',
      turns: 20,
    });
    await c.waitType('discussion_started');
    await s.close();
    const ended = await c.waitType('discussion_ended');
    expect(ended.reason).toBe('shutdown');
    expect([1000, 1001]).toContain((await c.waitClose()).code);
    expect(await liveClosed).toBe(1001);
  });
});
