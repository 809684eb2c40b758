import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { autoConnectResponse, connectionList } from '../../src/schemas/connections';
import { planAutoConnect } from '../../server/agents/connectionStore';
import { createAgent } from './audioFixtures';
import { collect, startTestServer, type TestServer } from './harness';

describe('/connections against the real server', () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer();
  });
  afterAll(() => s.close());

  it('creates, lists in both spellings and deletes a connection', async () => {
    const { token } = await s.register();
    const a = await createAgent(s, token, 'A');
    const b = await createAgent(s, token, 'B');
    const r = await s.api('POST', '/connections/', { token, body: { from_agent_id: a.id, to_agent_id: b.id } });
    expect(r.status).toBe(201);
    expect(r.body).toMatchObject({ source: a.id, target: b.id, from_agent_id: a.id, to_agent_id: b.id });

    const list = connectionList.parse((await s.api('GET', '/connections/', { token })).body);
    expect(list).toHaveLength(1);
    expect(list[0]).toMatchObject({
      id: r.body.id,
      source: a.id,
      target: b.id,
      from_agent_id: a.id,
      to_agent_id: b.id,
    });

    expect(await s.api('DELETE', `/connections/${r.body.id}`, { token })).toMatchObject({
      status: 200,
      body: { success: true },
    });
    expect((await s.api('GET', '/connections', { token })).body).toEqual([]);
    expect(await s.api('DELETE', `/connections/${r.body.id}`, { token })).toMatchObject({
      status: 404,
      body: { detail: 'Connection not found' },
    });
  });

  it('answers the existing connection (200) for a duplicate and allows the reverse direction', async () => {
    const { token } = await s.register();
    const a = await createAgent(s, token, 'A');
    const b = await createAgent(s, token, 'B');
    const first = await s.api('POST', '/connections/', { token, body: { from_agent_id: a.id, to_agent_id: b.id } });
    const again = await s.api('POST', '/connections/', { token, body: { from_agent_id: a.id, to_agent_id: b.id } });
    expect(again.status).toBe(200);
    expect(again.body.id).toBe(first.body.id);
    const reverse = await s.api('POST', '/connections/', { token, body: { from_agent_id: b.id, to_agent_id: a.id } });
    expect(reverse.status).toBe(201);
    expect((await s.api('GET', '/connections/', { token })).body).toHaveLength(2);
  });

  it('rejects self-connections, unknown agents and malformed bodies', async () => {
    const { token } = await s.register();
    const a = await createAgent(s, token, 'A');
    expect(
      await s.api('POST', '/connections/', { token, body: { from_agent_id: a.id, to_agent_id: a.id } }),
    ).toMatchObject({ status: 400 });
    expect(
      await s.api('POST', '/connections/', { token, body: { from_agent_id: a.id, to_agent_id: 'nope' } }),
    ).toMatchObject({ status: 404, body: { detail: 'Agent not found' } });
    expect(
      await s.api('POST', '/connections/', { token, body: { from_agent_id: 'nope', to_agent_id: a.id } }),
    ).toMatchObject({ status: 404, body: { detail: 'Agent not found' } });
    for (const body of [
      {},
      { from_agent_id: a.id },
      { from_agent_id: '', to_agent_id: a.id },
      { from_agent_id: 1, to_agent_id: 2 },
    ]) {
      expect((await s.api('POST', '/connections/', { token, body })).status, JSON.stringify(body)).toBe(422);
    }
  });

  it('auto-connects the agents into a chain in creation order, skipping linked pairs, and is idempotent', async () => {
    const { token } = await s.register();
    const ids: string[] = [];
    for (const n of ['A', 'B', 'C', 'D', 'E']) ids.push((await createAgent(s, token, n)).id);
    const [a, b, c, d, e] = ids;
    // C→B already links the pair (B, C) in the other direction; A→E is not a chain pair and stays extra.
    await s.api('POST', '/connections/', { token, body: { from_agent_id: c, to_agent_id: b } });
    await s.api('POST', '/connections/', { token, body: { from_agent_id: a, to_agent_id: e } });

    const socket = collect(await s.socket('/ws/updates', token));
    await socket.next('connected');
    const r = await s.api('POST', '/connections/auto-connect', { token });
    expect(r.status).toBe(200);
    expect(autoConnectResponse.parse(r.body).connections_created).toBe(3);
    const pairs = (await s.api('GET', '/connections/', { token })).body.map(
      (x: { source: string; target: string }) => `${x.source}>${x.target}`,
    );
    expect(pairs.sort()).toEqual([`${c}>${b}`, `${a}>${e}`, `${a}>${b}`, `${c}>${d}`, `${d}>${e}`].sort());
    // One frame for the batch; the canvas reloads the list on it.
    await socket.next('connection_created');
    expect(socket.frames.filter((f) => f.type === 'connection_created')).toHaveLength(1);

    expect((await s.api('POST', '/connections/auto-connect', { token })).body.connections_created).toBe(0);
    expect((await s.api('GET', '/connections/', { token })).body).toHaveLength(5);
  });

  it('auto-connect with fewer than two agents creates nothing', async () => {
    const { token } = await s.register();
    expect((await s.api('POST', '/connections/auto-connect', { token })).body).toMatchObject({
      connections_created: 0,
    });
    await createAgent(s, token, 'Solo');
    expect((await s.api('POST', '/connections/auto-connect', { token })).body).toMatchObject({
      connections_created: 0,
    });
  });

  it('loses the agent’s connections when the agent is deleted', async () => {
    const { token } = await s.register();
    const a = await createAgent(s, token, 'A');
    const b = await createAgent(s, token, 'B');
    const c = await createAgent(s, token, 'C');
    await s.api('POST', '/connections/auto-connect', { token });
    await s.api('POST', '/connections/', { token, body: { from_agent_id: c.id, to_agent_id: a.id } });
    const del = await s.api('DELETE', `/agents/${b.id}`, { token });
    expect(del.body).toMatchObject({ connections_deleted: 2 });
    const left = (await s.api('GET', '/connections/', { token })).body;
    expect(left).toHaveLength(1);
    expect(left[0]).toMatchObject({ source: c.id, target: a.id });
  });

  it('needs a bearer token on every connection route', async () => {
    for (const [m, p] of [
      ['GET', '/connections/'],
      ['POST', '/connections/'],
      ['DELETE', '/connections/x'],
      ['POST', '/connections/auto-connect'],
    ]) {
      expect((await s.api(m, p)).status, `${m} ${p}`).toBe(401);
    }
  });
});

describe('planAutoConnect', () => {
  it('chains consecutive agents, skipping pairs linked either way', () => {
    expect(planAutoConnect(['a', 'b', 'c', 'd'], [])).toEqual([
      ['a', 'b'],
      ['b', 'c'],
      ['c', 'd'],
    ]);
    expect(
      planAutoConnect(
        ['a', 'b', 'c', 'd'],
        [
          { from_agent_id: 'c', to_agent_id: 'b' },
          { from_agent_id: 'a', to_agent_id: 'd' },
        ],
      ),
    ).toEqual([
      ['a', 'b'],
      ['c', 'd'],
    ]);
    expect(planAutoConnect(['a'], [])).toEqual([]);
    expect(planAutoConnect([], [])).toEqual([]);
  });
});
