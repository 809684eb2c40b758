import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SHARE_INVALID_TEXT, shareCreated, shareList } from '../../src/schemas/rooms';
import { SHARE_OPENS_PER_MINUTE, sharedDiscussion } from '../../src/schemas/shares';
import { storedDiscussion } from '../../src/schemas/history';
import { tokenHash } from '../../server/shares/store';
import { startTestServer, type TestServer } from './harness';
import { AGENT_SPECS, makeAgents, openDiscussion, sessionId, testProviders } from './engine/helpers';

// Read-only share links: only the owner makes, lists and revokes them; the token is kept only as its hash; the public
// answer is an allow-list (no email, prompt, model or key, even when a stored frame carries one); a revoked or expired
// link is the one 'not valid' answer; the public route is rate-limited per address.

let s: TestServer;
let owner: { token: string; email: string };
let other: { token: string };
let discussionId: string;

const OWNER_EMAIL = `share-owner-${Date.now()}@example.com`;
const SECRET_KEY = 'sk-share-test-0123456789';

beforeAll(async () => {
  s = await startTestServer({}, { providers: testProviders() });
  owner = await s.register(OWNER_EMAIL);
  other = await s.register();
  const agentIds = await makeAgents(s, owner.token, 2);
  const sid = sessionId('share');
  const c = await openDiscussion(s, '/ws/discuss', owner.token, {
    agent_ids: agentIds,
    session_id: sid,
    context: 'Keep or sell the old press?',
    turns: 2,
  });
  await c.waitClose(20_000);
  c.ws.close();
  const stored = storedDiscussion.parse((await s.api('GET', `/discussion/${sid}`, { token: owner.token })).body);
  discussionId = stored.id;
  // A stored frame carrying what must never leave: extra keys on a turn, and an error naming a model's address.
  const seq = Math.max(...stored.frames.map((f) => f.seq)) + 1;
  await s.server.ctx.db.query(
    'INSERT INTO discussion_frames (discussion_id, seq, data) VALUES ($1, $2, $3), ($1, $4, $5)',
    [
      discussionId,
      seq,
      JSON.stringify({
        type: 'text',
        id: 'leaky',
        from_id: agentIds[0],
        from: 'Ada',
        text: 'A turn with secrets beside it.',
        turn: 3,
        api_key: SECRET_KEY,
        system_prompt: AGENT_SPECS[0].prompt,
        owner_email: OWNER_EMAIL,
      }),
      seq + 1,
      JSON.stringify({ type: 'error', message: `Model at http://10.1.2.3:11434 refused ${SECRET_KEY}` }),
    ],
  );
  // Nested too: a participant of a start frame carrying its model address and prompt.
  await s.server.ctx.db.query('INSERT INTO discussion_frames (discussion_id, seq, data) VALUES ($1, $2, $3)', [
    discussionId,
    seq + 2,
    JSON.stringify({
      type: 'discussion_started',
      session_id: 'x',
      participants: [
        {
          id: agentIds[0],
          name: 'Ada',
          role: 'Agronomist',
          model: 'http://10.1.2.3:11434/llama',
          prompt: AGENT_SPECS[0].prompt,
        },
      ],
    }),
  ]);
}, 60_000);
afterAll(() => s?.close());

const create = async (token = owner.token, body?: object) =>
  s.api('POST', `/discussions/${discussionId}/shares`, { token, body });
const tokenOf = (url: string) => url.split('/').pop()!;

describe('share links', () => {
  it('makes a link at /s/{token} (128 random bits) and keeps only its SHA-256', async () => {
    const r = await create();
    expect(r.status).toBe(201);
    const made = shareCreated.parse(r.body);
    expect(made.url).toMatch(/^\/s\/[A-Za-z0-9_-]{22}$/);
    const token = tokenOf(made.url);
    expect(Buffer.from(token, 'base64url')).toHaveLength(16);
    const days = (Date.parse(made.expires_at!) - Date.now()) / 86_400_000;
    expect(days).toBeGreaterThan(29.9);
    const rows = await s.server.ctx.db.query<Record<string, unknown>>('SELECT * FROM discussion_shares');
    const table = JSON.stringify(rows);
    expect(table).not.toContain(token);
    expect(table).toContain(tokenHash(token));
    expect(
      shareList
        .parse((await s.api('GET', `/discussions/${discussionId}/shares`, { token: owner.token })).body)
        .shares.map((x) => x.id),
    ).toContain(made.id);
  });

  it('lets only the owner make, list and revoke links', async () => {
    expect((await create(other.token)).status).toBe(404);
    expect((await s.api('GET', `/discussions/${discussionId}/shares`, { token: other.token })).status).toBe(404);
    expect((await s.api('POST', `/discussions/${discussionId}/shares`, {})).status).toBe(401);
    const made = shareCreated.parse((await create()).body);
    expect((await s.api('DELETE', `/shares/${made.id}`, { token: other.token })).status).toBe(404);
    expect((await s.api('GET', `/shares/${tokenOf(made.url)}/discussion`)).status).toBe(200);
  });

  it('answers the discussion without an account, and no email, prompt, model or key is in its text', async () => {
    const made = shareCreated.parse((await create()).body);
    const res = await fetch(`${s.url}/shares/${tokenOf(made.url)}/discussion`);
    expect(res.status).toBe(200);
    expect(res.headers.get('x-robots-tag')).toContain('noindex');
    const text = await res.text();
    const shared = sharedDiscussion.parse(JSON.parse(text));
    expect(shared.participants.map((p) => [p.name, p.role])).toEqual([
      ['Ada', 'Agronomist'],
      ['Bo', 'Economist'],
    ]);
    expect(shared.frames.filter((f) => f.data.type === 'text').length).toBeGreaterThanOrEqual(3);
    for (const secret of [
      OWNER_EMAIL,
      SECRET_KEY,
      AGENT_SPECS[0].prompt,
      AGENT_SPECS[1].prompt,
      '10.1.2.3',
      '"model"',
      'model_label',
      'user_id',
      'api_key',
      '"config"',
    ])
      expect(text, secret).not.toContain(secret);
    expect(text).toContain('A turn with secrets beside it.');
    const started = shared.frames.find((f) => f.data.type === 'discussion_started' && f.data.session_id === 'x');
    expect(started?.data.participants).toEqual([{ id: expect.any(String), name: 'Ada', role: 'Agronomist' }]);
  });

  it('revokes a link at once: the same token is the one not-valid answer', async () => {
    const made = shareCreated.parse((await create()).body);
    const path = `/shares/${tokenOf(made.url)}/discussion`;
    expect((await s.api('GET', path)).status).toBe(200);
    expect((await s.api('DELETE', `/shares/${made.id}`, { token: owner.token })).status).toBe(204);
    const gone = await s.api('GET', path);
    expect(gone).toMatchObject({ status: 404, body: { detail: SHARE_INVALID_TEXT } });
    const listed = shareList.parse(
      (await s.api('GET', `/discussions/${discussionId}/shares`, { token: owner.token })).body,
    );
    expect(listed.shares.map((x) => x.id)).not.toContain(made.id);
    expect((await s.api('GET', '/shares/not-a-token/discussion')).body).toEqual({ detail: SHARE_INVALID_TEXT });
    expect((await s.api('GET', `/shares/${'A'.repeat(22)}/discussion`)).body).toEqual({ detail: SHARE_INVALID_TEXT });
  });

  it('stops an expired link and leaves it out of the list', async () => {
    const made = shareCreated.parse((await create(owner.token, { expires_in_days: 1 })).body);
    await s.server.ctx.db.query("UPDATE discussion_shares SET expires_at = now() - interval '1 second' WHERE id = $1", [
      made.id,
    ]);
    expect((await s.api('GET', `/shares/${tokenOf(made.url)}/discussion`)).body).toEqual({
      detail: SHARE_INVALID_TEXT,
    });
    const listed = shareList.parse(
      (await s.api('GET', `/discussions/${discussionId}/shares`, { token: owner.token })).body,
    );
    expect(listed.shares.map((x) => x.id)).not.toContain(made.id);
  });

  // Last: it spends this address's allowance for the minute.
  it(`rate-limits the public answer per address (${SHARE_OPENS_PER_MINUTE} a minute)`, async () => {
    const statuses: number[] = [];
    for (let i = 0; i < SHARE_OPENS_PER_MINUTE + 2; i++)
      statuses.push((await s.api('GET', `/shares/${'B'.repeat(22)}/discussion`)).status);
    expect(statuses.filter((x) => x === 429).length).toBeGreaterThanOrEqual(2);
    expect(statuses.filter((x) => x === 404).length).toBeGreaterThan(0);
  });
});
