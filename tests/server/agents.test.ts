import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { agent, agentList } from '../../src/schemas/agents';
import { liveServerFrame } from '../../src/schemas/liveUpdates';
import { deriveCapabilities } from '../../server/agents/capabilities';
import { collect, startTestServer, type TestServer } from './harness';

const valid = {
  name: '  Ada  ',
  role: ' Researcher ',
  prompt: ' Weigh the evidence and cite studies. ',
  model: 'gemma3:4b',
};

describe('/agents against the real server', () => {
  let s: TestServer;
  let token: string;
  beforeAll(async () => {
    s = await startTestServer();
    ({ token } = await s.register());
  });
  afterAll(() => s.close());

  it('creates a trimmed, idle agent with derived capabilities and a stored position', async () => {
    const r = await s.api('POST', '/agents/', { token, body: valid });
    expect(r.status).toBe(201);
    const a = agent.parse(r.body);
    expect(a).toMatchObject({
      name: 'Ada',
      role: 'Researcher',
      prompt: 'Weigh the evidence and cite studies.',
      model: 'gemma3:4b',
      status: 'idle',
      personality: null,
    });
    expect(a.capabilities).toEqual(['research']);
    expect(a.x).toBeGreaterThanOrEqual(100);
    expect(a.x).toBeLessThanOrEqual(500);
    expect(a.y).toBeGreaterThanOrEqual(100);
    expect(new Date(a.created_at!).toISOString()).toBe(a.created_at);

    const got = await s.api('GET', `/agents/${a.id}`, { token });
    expect(got.status).toBe(200);
    expect(got.body).toEqual(r.body);
  });

  it('keeps a given starting position and personality on create', async () => {
    const r = await s.api('POST', '/agents', { token, body: { ...valid, x: 12.5, y: 1999, personality: 'patient' } });
    expect(r.status).toBe(201);
    expect(r.body).toMatchObject({ x: 12.5, y: 1999, personality: 'patient' });
  });

  it('lists agents in creation order', async () => {
    const before = agentList.parse((await s.api('GET', '/agents/', { token })).body);
    const a = (await s.api('POST', '/agents/', { token, body: { ...valid, name: 'Later' } })).body;
    const after = agentList.parse((await s.api('GET', '/agents', { token })).body);
    expect(after.map((x) => x.id)).toEqual([...before.map((x) => x.id), a.id]);
  });

  it('answers 422 for every invalid create body', async () => {
    const bad: unknown[] = [
      {},
      { ...valid, name: '   ' },
      { ...valid, role: '' },
      { ...valid, prompt: ' \n ' },
      { ...valid, model: undefined },
      { ...valid, name: 42 },
      { ...valid, name: 'x'.repeat(121) },
      { ...valid, personality: 'grumpy' },
      { ...valid, x: 'left' },
      'not json',
    ];
    for (const body of bad) {
      const r = await s.api('POST', '/agents/', { token, body });
      expect(r.status, JSON.stringify(body)).toBe(422);
      expect(typeof r.body.detail).toBe('string');
    }
  });

  it('updates fields and personality, recomputing capabilities; stays partial', async () => {
    const a = (await s.api('POST', '/agents/', { token, body: valid })).body;
    const r = await s.api('PATCH', `/agents/${a.id}`, {
      token,
      body: { role: ' Lawyer ', prompt: 'Argue the regulation.', personality: 'assertive' },
    });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({
      id: a.id,
      name: 'Ada',
      role: 'Lawyer',
      prompt: 'Argue the regulation.',
      personality: 'assertive',
      model: 'gemma3:4b',
    });
    expect(r.body.capabilities).toEqual(['critical_thinking', 'legal_analysis']);

    const same = await s.api('PATCH', `/agents/${a.id}`, { token, body: {} });
    expect(same.status).toBe(200);
    expect(same.body).toMatchObject({ role: 'Lawyer', personality: 'assertive' });

    for (const body of [{ name: '' }, { personality: 'sleepy' }, { model: '  ' }]) {
      expect((await s.api('PATCH', `/agents/${a.id}`, { token, body })).status, JSON.stringify(body)).toBe(422);
    }
  });

  it('stores positions as given and rejects non-finite or missing coordinates', async () => {
    const a = (await s.api('POST', '/agents/', { token, body: valid })).body;
    const r = await s.api('PUT', `/agents/${a.id}/position`, { token, body: { x: -50.25, y: 4000 } });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ x: -50.25, y: 4000 });
    expect((await s.api('GET', `/agents/${a.id}`, { token })).body).toMatchObject({ x: -50.25, y: 4000 });

    for (const body of [{ x: 1 }, { x: null, y: 1 }, { x: '1', y: 2 }]) {
      expect((await s.api('PUT', `/agents/${a.id}/position`, { token, body })).status, JSON.stringify(body)).toBe(422);
    }
    // JSON cannot say Infinity, but 1e999 parses to it.
    const inf = await fetch(`${s.url}/agents/${a.id}/position`, {
      method: 'PUT',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: '{"x": 1e999, "y": 0}',
    });
    expect(inf.status).toBe(422);
  });

  it('deletes an agent; afterwards it is 404 everywhere', async () => {
    const a = (await s.api('POST', '/agents/', { token, body: valid })).body;
    const del = await s.api('DELETE', `/agents/${a.id}`, { token });
    expect(del).toMatchObject({ status: 200, body: { success: true, id: a.id } });
    for (const [m, p, body] of [
      ['GET', `/agents/${a.id}`],
      ['PATCH', `/agents/${a.id}`, { name: 'x' }],
      ['PUT', `/agents/${a.id}/position`, { x: 1, y: 1 }],
      ['DELETE', `/agents/${a.id}`],
    ] as const) {
      const r = await s.api(m, p, { token, body });
      expect(r, `${m} ${p}`).toMatchObject({ status: 404, body: { detail: 'Agent not found' } });
    }
  });

  it('needs a bearer token on every agent route', async () => {
    for (const [m, p] of [
      ['GET', '/agents/'],
      ['POST', '/agents/'],
      ['GET', '/agents/x'],
      ['PATCH', '/agents/x'],
      ['DELETE', '/agents/x'],
      ['PUT', '/agents/x/position'],
    ]) {
      expect((await s.api(m, p, { body: m === 'GET' || m === 'DELETE' ? undefined : valid })).status, `${m} ${p}`).toBe(
        401,
      );
    }
  });

  it('broadcasts every change to the same user’s /ws/updates sockets and to no one else', async () => {
    const other = await s.register();
    const mine = collect(await s.socket('/ws/updates', token));
    const theirSocket = await s.socket('/ws/updates', other.token);
    const theirs = collect(theirSocket);
    await mine.next('connected');
    await theirs.next('connected');

    const a = (await s.api('POST', '/agents/', { token, body: valid })).body;
    const b = (await s.api('POST', '/agents/', { token, body: { ...valid, name: 'Bo' } })).body;
    await s.api('PATCH', `/agents/${a.id}`, { token, body: { name: 'Ada II' } });
    await s.api('PUT', `/agents/${a.id}/position`, { token, body: { x: 10, y: 20 } });
    const c = (await s.api('POST', '/connections/', { token, body: { from_agent_id: a.id, to_agent_id: b.id } })).body;
    await s.api('DELETE', `/connections/${c.id}`, { token });
    await s.api('DELETE', `/agents/${b.id}`, { token });

    await mine.until(() => mine.frames.some((f) => f.type === 'agent_deleted'));
    const seen = mine.frames.filter((f) => f.type !== 'connected');
    for (const f of seen) expect(liveServerFrame.safeParse(f).success, JSON.stringify(f)).toBe(true);
    expect(seen.map((f) => f.type)).toEqual([
      'agent_created',
      'agent_created',
      'agent_updated',
      'agent_updated',
      'connection_created',
      'connection_deleted',
      'agent_deleted',
    ]);
    expect(seen[0].agent.id).toBe(a.id);
    expect(seen[2].agent.name).toBe('Ada II');
    expect(seen[3].agent).toMatchObject({ x: 10, y: 20 });
    expect(seen[4].connection).toMatchObject({ id: c.id, source: a.id, target: b.id });
    expect(seen[5].connection_id).toBe(c.id);
    expect(seen[6].agent_id).toBe(b.id);

    // The other user's socket got its greeting and nothing else: a ping sent after all of the above is answered
    // after anything the server had sent that socket.
    theirSocket.send(JSON.stringify({ type: 'ping' }));
    await theirs.next('pong');
    expect(theirs.frames.map((f) => f.type)).toEqual(['connected', 'pong']);
  });
});

describe('deriveCapabilities', () => {
  it('is deterministic, ordered and may be empty', () => {
    expect(deriveCapabilities('Data Scientist', 'Analyse statistics and research papers')).toEqual([
      'research',
      'data_analysis',
    ]);
    expect(deriveCapabilities('Devil’s advocate', 'Challenge every idea, brainstorm alternatives')).toEqual([
      'critical_thinking',
      'creative_thinking',
    ]);
    expect(deriveCapabilities('Friend', 'Say hello.')).toEqual([]);
    // Whole-word starts: 'start' is not 'art', 'patient' is not 'medic'.
    expect(deriveCapabilities('Host', 'Start the party, be patient')).toEqual([]);
  });
});
