// Agent identity (colour, avatar) is stored and patched; agents created without a position get free slots.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { agent, agentList } from '../../src/schemas/agents';
import { overlaps } from '../../src/shared/canvasPlacement';
import { startTestServer, type TestServer } from './harness';

const valid = { name: 'Ada', role: 'Researcher', prompt: 'Weigh the evidence.', model: 'gemma3:4b' };

describe('agent identity and free slots', () => {
  let s: TestServer;
  let token: string;
  beforeAll(async () => {
    s = await startTestServer();
    ({ token } = await s.register());
  });
  afterAll(() => s.close());

  it('stores a colour and avatar on create, patches them, and null clears them', async () => {
    const created = await s.api('POST', '/agents/', {
      token,
      body: { ...valid, color: '#A21CAF', avatar: '🦉', personality: 'analytical' },
    });
    expect(created.status).toBe(201);
    const a = agent.parse(created.body);
    expect(a).toMatchObject({ color: '#a21caf', avatar: '🦉', personality: 'analytical' });

    const patched = await s.api('PATCH', `/agents/${a.id}`, { token, body: { color: '#047857', avatar: 'AL' } });
    expect(patched.body).toMatchObject({ color: '#047857', avatar: 'AL', name: 'Ada' });
    // A patch that does not name them keeps them.
    expect((await s.api('PATCH', `/agents/${a.id}`, { token, body: { name: 'Ada L' } })).body).toMatchObject({
      color: '#047857',
      avatar: 'AL',
    });
    const cleared = await s.api('PATCH', `/agents/${a.id}`, { token, body: { color: null, avatar: null } });
    expect(cleared.body).toMatchObject({ color: null, avatar: null });
    expect((await s.api('GET', `/agents/${a.id}`, { token })).body).toMatchObject({ color: null, avatar: null });
  });

  it('gives agents made without a colour the ones the editor would, none shared while the palette lasts', async () => {
    const { token: t } = await s.register();
    const colours: string[] = [];
    for (const name of ['Ada', 'Bo', 'Cy', 'Di', 'Ed', 'Fay', 'Gus', 'Hal'])
      colours.push(agent.parse((await s.api('POST', '/agents/', { token: t, body: { ...valid, name } })).body).color!);
    expect(new Set(colours).size).toBe(8);
    for (const c of colours) expect(c).toMatch(/^#[0-9a-f]{6}$/);
  });

  it('refuses a colour that is not #rrggbb and an avatar that is too long', async () => {
    const a = (await s.api('POST', '/agents/', { token, body: valid })).body;
    for (const body of [{ color: 'red' }, { color: '#12345' }, { avatar: 'x'.repeat(17) }]) {
      const r = await s.api('PATCH', `/agents/${a.id}`, { token, body });
      expect(r.status, JSON.stringify(body)).toBe(422);
      expect(typeof r.body.detail).toBe('string');
    }
    expect((await s.api('POST', '/agents/', { token, body: { ...valid, color: 'blue' } })).status).toBe(422);
  });

  it('gives twelve agents created without a position (even at once) places where no two overlap', async () => {
    const { token: t } = await s.register();
    await Promise.all(
      Array.from({ length: 12 }, (_, i) =>
        s.api('POST', '/agents/', { token: t, body: { ...valid, name: `Agent ${i}` } }),
      ),
    );
    const list = agentList.parse((await s.api('GET', '/agents/', { token: t })).body);
    expect(list).toHaveLength(12);
    for (const a of list)
      for (const b of list)
        if (a.id !== b.id)
          expect(overlaps({ x: a.x!, y: a.y! }, { x: b.x!, y: b.y! }), `${a.name} / ${b.name}`).toBe(false);
    // A given position is kept as given.
    const given = (await s.api('POST', '/agents/', { token: t, body: { ...valid, x: 700, y: 800 } })).body;
    expect(given).toMatchObject({ x: 700, y: 800 });
  });
});
