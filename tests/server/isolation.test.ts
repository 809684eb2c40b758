import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AUDIO_SAMPLES, createAgent, providersWith, upload } from './audioFixtures';
import { collect, startTestServer, type TestServer } from './harness';

// One user never sees or touches another's agents, connections or audio: every id of someone else's
// answers 404 exactly like a missing one, and nothing of the owner's changes.
describe('isolation between two users', () => {
  let s: TestServer;
  let alice: { token: string };
  let bob: { token: string };
  let ids: { agent: string; other: string; connection: string; audio: string; audioUrl: string };
  const transcribed: string[] = [];

  beforeAll(async () => {
    s = await startTestServer(
      {},
      { providers: providersWith({ transcribe: async (f) => (transcribed.push(f.fileName), 'text') }) },
    );
    alice = await s.register();
    bob = await s.register();
    const agent = await createAgent(s, alice.token, 'Alice agent');
    const other = await createAgent(s, alice.token, 'Alice other');
    const connection = (
      await s.api('POST', '/connections/', {
        token: alice.token,
        body: { from_agent_id: agent.id, to_agent_id: other.id },
      })
    ).body;
    const audio = (
      await upload(s, alice.token, agent.id, AUDIO_SAMPLES.wav.bytes, 'a.wav', {
        name: 'voice',
        auto_transcribe: 'false',
      })
    ).body;
    ids = { agent: agent.id, other: other.id, connection: connection.id, audio: audio.id, audioUrl: audio.audio_url };
  });
  afterAll(() => s.close());

  const snapshot = async () => ({
    agents: (await s.api('GET', '/agents/', { token: alice.token })).body,
    connections: (await s.api('GET', '/connections/', { token: alice.token })).body,
    audio: (await s.api('GET', `/agents/${ids.agent}/audio`, { token: alice.token })).body,
  });

  it('lists nothing of the other user', async () => {
    expect((await s.api('GET', '/agents/', { token: bob.token })).body).toEqual([]);
    expect((await s.api('GET', '/connections/', { token: bob.token })).body).toEqual([]);
    expect((await s.api('POST', '/connections/auto-connect', { token: bob.token })).body).toMatchObject({
      connections_created: 0,
    });
  });

  it('answers 404 on every route for the other user’s ids and changes nothing', async () => {
    const before = await snapshot();
    const bobAgent = await createAgent(s, bob.token, 'Bob agent');
    const attempts: Array<[string, string, unknown?]> = [
      ['GET', `/agents/${ids.agent}`],
      ['PATCH', `/agents/${ids.agent}`, { name: 'Hijacked' }],
      ['PUT', `/agents/${ids.agent}/position`, { x: 1, y: 1 }],
      ['DELETE', `/agents/${ids.agent}`],
      ['GET', `/agents/${ids.agent}/audio`],
      ['POST', '/connections/', { from_agent_id: ids.agent, to_agent_id: ids.other }],
      ['POST', '/connections/', { from_agent_id: bobAgent.id, to_agent_id: ids.agent }],
      ['POST', '/connections/', { from_agent_id: ids.agent, to_agent_id: bobAgent.id }],
      ['DELETE', `/connections/${ids.connection}`],
      ['DELETE', `/agents/audio/${ids.audio}`],
      ['POST', `/agents/audio/${ids.audio}/set-default`],
      ['POST', '/agents/audio/transcribe', { audio_id: ids.audio }],
      ['POST', '/agents/audio/batch-transcribe', { agent_id: ids.agent, force_retranscribe: true }],
    ];
    for (const [method, p, body] of attempts) {
      const r = await s.api(method, p, { token: bob.token, body });
      expect(r.status, `${method} ${p} ${JSON.stringify(body ?? '')}`).toBe(404);
    }
    const up = await upload(s, bob.token, ids.agent, AUDIO_SAMPLES.wav.bytes, 'b.wav');
    expect(up).toMatchObject({ status: 404, body: { detail: 'Agent not found' } });

    // Media: the owner's bearer token opens it, Bob's does not; the key opens it for anyone who holds it.
    const bare = ids.audioUrl.split('?')[0];
    expect((await s.api('GET', bare, { token: bob.token })).status).toBe(404);
    expect((await s.api('GET', bare, { token: alice.token })).status).toBe(200);

    expect(transcribed).toEqual([]);
    expect(await snapshot()).toEqual(before);
  });

  it('tells live updates only to the owner', async () => {
    const bobWs = await s.socket('/ws/updates', bob.token);
    const bobSocket = collect(bobWs);
    const aliceSocket = collect(await s.socket('/ws/updates', alice.token));
    await bobSocket.next('connected');
    await aliceSocket.next('connected');
    const a = await createAgent(s, alice.token, 'Live');
    await s.api('POST', '/connections/auto-connect', { token: alice.token });
    await s.api('DELETE', `/agents/${a.id}`, { token: alice.token });
    await aliceSocket.next('agent_deleted');
    expect(aliceSocket.frames.map((f) => f.type)).toEqual([
      'connected',
      'agent_created',
      'connection_created',
      'agent_deleted',
    ]);
    // Answered after anything the server had sent Bob's socket before it.
    bobWs.send(JSON.stringify({ type: 'ping' }));
    await bobSocket.next('pong');
    expect(bobSocket.frames.map((f) => f.type)).toEqual(['connected', 'pong']);
  });
});
