import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLOSE_REMOVED_FROM_ROOM, REMOVED_FROM_ROOM_TEXT, roomPeopleFrame } from '../../src/schemas/rooms';
import { startTestServer, type TestServer } from './harness';
import { client, makeAgents, openDiscussion, sessionId, type Client } from './engine/helpers';

// Rooms on the server (README 'Sharing and rooms'): invites, a member's socket, who may send what, seats, removal.
// A debate with a human judge waits for the judge's first vote, so the discussion is live while people join.

let s: TestServer;
let owner: { token: string; userId: string; email: string };
let ids: string[];

beforeAll(async () => {
  s = await startTestServer();
  owner = await s.register(`ola.owner-${Date.now()}@example.com`);
  ids = await makeAgents(s, owner.token, 2);
});
afterAll(async () => s.close());

/** A debate whose human judge (the owner, until the seat is given) must vote before anyone speaks. */
async function startDebate(): Promise<{ c: Client; discussionId: string }> {
  const c = await openDiscussion(s, '/ws/discuss', owner.token, {
    agent_ids: ids,
    session_id: sessionId('room'),
    context: 'Should vineyards switch to drip irrigation?',
    turns: 2,
    format: { kind: 'debate', judge: 'human', sides: { for: [ids[0]], against: [ids[1]] } },
  });
  await c.waitType('format_stage');
  const history = await s.api('GET', '/discussion/history', { token: owner.token });
  const discussionId = history.body.find((d: any) => d.status === 'running')?.id ?? history.body[0].id;
  return { c, discussionId };
}

async function invite(discussionId: string, role: 'participant' | 'watcher', token = owner.token) {
  return s.api('POST', `/discussions/${discussionId}/invites`, { token, body: { role } });
}

/** A second user who accepts an invite of this role and joins over the socket. */
async function member(discussionId: string, role: 'participant' | 'watcher', email?: string) {
  const u = await s.register(email);
  const made = await invite(discussionId, role);
  expect(made.status).toBe(201);
  const token = made.body.url.split('/join/')[1];
  const accepted = await s.api('POST', `/invites/${token}/accept`, { token: u.token });
  expect(accepted.status).toBe(200);
  expect(accepted.body).toEqual({ discussion_id: discussionId, role, panel: 'standard', endpoint: '/ws/discuss' });
  const c = client(await s.socket('/ws/discuss', u.token), 'standard');
  c.send({ type: 'room_join', discussion_id: discussionId });
  return { ...u, c };
}

describe('rooms', () => {
  it('display names: GET /auth/me answers the default, PATCH sets one, bounded', async () => {
    const u = await s.register(`grace.hopper-${Date.now()}@example.com`);
    const me = await s.api('GET', '/auth/me', { token: u.token });
    expect(me.body.display_name).toMatch(/^grace\.hopper-\d+$/);
    const set = await s.api('PATCH', '/auth/me', { token: u.token, body: { display_name: '  Grace  ' } });
    expect(set.status).toBe(200);
    expect(set.body.display_name).toBe('Grace');
    expect((await s.api('GET', '/auth/me', { token: u.token })).body.display_name).toBe('Grace');
    expect((await s.api('PATCH', '/auth/me', { token: u.token, body: { display_name: 'x'.repeat(41) } })).status).toBe(
      422,
    );
    expect((await s.api('PATCH', '/auth/me', { token: u.token, body: { display_name: ' ' } })).status).toBe(422);
  });

  it('invite → accept → join: the member is replayed the start, then sees frames live; everyone gets room_people', async () => {
    const { c, discussionId } = await startDebate();
    const p = await member(discussionId, 'participant');
    await p.c.waitType('format_stage');
    const people = await p.c.waitType('room_people');
    expect(roomPeopleFrame.safeParse(people).success).toBe(true);
    expect(people.you).toEqual({ user_id: p.userId, role: 'participant' });
    expect(people.people.map((x: any) => [x.user_id, x.role])).toEqual([
      [owner.userId, 'owner'],
      [p.userId, 'participant'],
    ]);
    // The owner holds the judge's seat until it is given; nobody's email is on the wire.
    expect(people.people[0].seats).toEqual(['judge']);
    const toOwner = await c.waitType('room_people');
    expect(toOwner.you).toEqual({ user_id: owner.userId, role: 'owner' });
    expect(JSON.stringify([...p.c.frames, ...c.frames])).not.toContain('@example.com');
    // Live: the owner's vote starts the debate, and the member sees its turns as they come.
    c.send({ type: 'judge_vote', side: 'for', confidence: 0.6 });
    await p.c.waitType('vote');
    await p.c.waitFor((f) => f.type === 'text' || f.type === 'agent_message');
    c.send({ type: 'stop' });
    await p.c.waitClose();
  });

  it("a participant's message reaches the owner as room_message with the author's display name and colour", async () => {
    const { c, discussionId } = await startDebate();
    const p = await member(discussionId, 'participant');
    await s.api('PATCH', '/auth/me', { token: p.token, body: { display_name: 'Lin' } });
    await p.c.waitType('room_people');
    // The name is read when they join; join again to take the new one.
    p.c.ws.close();
    const again = client(await s.socket('/ws/discuss', p.token), 'standard');
    again.send({ type: 'room_join', discussion_id: discussionId });
    await again.waitType('room_people');
    // Typing shows as a dot in everyone's list.
    again.send({ type: 'room_typing', typing: true });
    await c.waitFor(
      (f) => f.type === 'room_people' && f.people.find((x: any) => x.user_id === p.userId)?.typing === true,
    );
    again.send({ type: 'human_message', text: 'Drip saves water on sand.', timestamp: new Date().toISOString() });
    const got = await c.waitType('room_message');
    expect(got).toMatchObject({
      text: 'Drip saves water on sand.',
      author: { user_id: p.userId, display_name: 'Lin' },
    });
    expect(got.author.colour).toMatch(/^hsl\(/);
    // The owner's own messages are room messages too, for everyone.
    c.send({ type: 'human_message', text: 'Noted.', timestamp: new Date().toISOString() });
    const own = await again.waitFor((f) => f.type === 'room_message' && f.text === 'Noted.');
    expect(own.author.user_id).toBe(owner.userId);
    // History keeps the author by display name.
    c.send({ type: 'stop' });
    await c.waitClose();
    const stored = await s.api('GET', `/discussion/${discussionId}`, { token: owner.token });
    expect(stored.body.human_messages.find((h: any) => h.text.startsWith('Drip')).author).toEqual({
      user_id: p.userId,
      display_name: 'Lin',
    });
  });

  it('a participant cannot stop, delete, invite, share or steer without the seat; a watcher sends nothing', async () => {
    const { c, discussionId } = await startDebate();
    const p = await member(discussionId, 'participant');
    const w = await member(discussionId, 'watcher');
    await p.c.waitType('room_people');
    await w.c.waitType('room_people');
    p.c.send({ type: 'stop' });
    const refused = await p.c.waitFor((f) => f.type === 'error');
    expect(refused).toMatchObject({ fatal: false, message: 'Only the owner may stop this discussion.' });
    p.c.send({ type: 'judge_vote', side: 'for', confidence: 0.5 });
    await p.c.waitFor((f) => f.type === 'error' && /judge's seat/.test(f.message));
    w.c.send({ type: 'human_message', text: 'hello', timestamp: new Date().toISOString() });
    await w.c.waitFor((f) => f.type === 'error' && /Watchers only watch/.test(f.message));
    // Over HTTP: inviting is the owner's (403 for a member, 404 for anyone else); so is deleting.
    expect((await invite(discussionId, 'watcher', p.token)).status).toBe(403);
    const stranger = await s.register();
    expect((await invite(discussionId, 'watcher', stranger.token)).status).toBe(404);
    expect((await s.api('DELETE', `/discussion/${discussionId}`, { token: p.token })).status).toBe(403);
    // Sharing is the owner's too: a member gets no link and sees none.
    const share = await s.api('POST', `/discussions/${discussionId}/shares`, { token: p.token, body: {} });
    expect([403, 404]).toContain(share.status);
    expect([403, 404]).toContain(
      (await s.api('GET', `/discussions/${discussionId}/shares`, { token: p.token })).status,
    );
    // Still running: neither the stop nor the vote reached the engine.
    expect(c.frames.some((f) => f.type === 'discussion_ended' || f.type === 'vote')).toBe(false);
    c.send({ type: 'stop' });
    await c.waitClose();
  });

  it("the judge's seat given to a participant: their vote counts, the owner's no longer does", async () => {
    const { c, discussionId } = await startDebate();
    const p = await member(discussionId, 'participant');
    await p.c.waitType('room_people');
    c.send({ type: 'room_seat', seat: 'judge', user_id: p.userId });
    await p.c.waitFor(
      (f) => f.type === 'room_people' && f.people.find((x: any) => x.user_id === p.userId)?.seats.includes('judge'),
    );
    c.send({ type: 'judge_vote', side: 'for', confidence: 0.9 });
    await c.waitFor((f) => f.type === 'error' && /judge's seat/.test(f.message));
    p.c.send({ type: 'judge_vote', side: 'against', confidence: 0.7 });
    const vote = await c.waitType('vote');
    // Shown under the participant's name (as the room knew it when they joined), never as the owner's.
    expect(vote).toMatchObject({ side: 'against', confidence: 0.7 });
    expect(vote.voter_name).toBe(p.email.split('@')[0]);
    c.send({ type: 'stop' });
    await c.waitClose();
  });

  it('removal closes the person with the code and text, and they cannot come back', async () => {
    const { c, discussionId } = await startDebate();
    const w = await member(discussionId, 'watcher');
    await w.c.waitType('room_people');
    c.send({ type: 'room_remove', user_id: w.userId });
    expect(await w.c.waitClose()).toEqual({ code: CLOSE_REMOVED_FROM_ROOM, reason: REMOVED_FROM_ROOM_TEXT });
    await c.waitFor((f) => f.type === 'room_people' && !f.people.some((x: any) => x.user_id === w.userId));
    const back = client(await s.socket('/ws/discuss', w.token), 'standard');
    back.send({ type: 'room_join', discussion_id: discussionId });
    expect((await back.waitClose()).code).toBe(CLOSE_REMOVED_FROM_ROOM);
    const made = await invite(discussionId, 'participant');
    const token = made.body.url.split('/join/')[1];
    expect((await s.api('POST', `/invites/${token}/accept`, { token: w.token })).status).toBe(403);
    c.send({ type: 'stop' });
    await c.waitClose();
  });

  it('a stranger cannot join; invite tokens are stored hashed; a bad token is a 404', async () => {
    const { c, discussionId } = await startDebate();
    const stranger = await s.register();
    const x = client(await s.socket('/ws/discuss', stranger.token), 'standard');
    x.send({ type: 'room_join', discussion_id: discussionId });
    await x.waitClose();
    expect(x.frames.find((f) => f.type === 'error')?.message).toMatch(/not in this discussion/);
    const made = await invite(discussionId, 'watcher');
    const token = made.body.url.split('/join/')[1];
    expect(token.length).toBeGreaterThanOrEqual(22); // 128 bits, base64url
    const rows = await s.server.ctx.db.query<{ token_hash: string }>('SELECT token_hash FROM room_invites');
    expect(rows.length).toBeGreaterThan(0);
    for (const r of rows) {
      expect(r.token_hash).not.toContain(token);
      expect(r.token_hash).toMatch(/^[0-9a-f]{64}$/);
    }
    expect((await s.api('POST', '/invites/not-a-token/accept', { token: stranger.token })).status).toBe(404);
    expect((await s.api('POST', `/invites/${token}/accept`, { token: owner.token })).status).toBe(400);
    c.send({ type: 'stop' });
    await c.waitClose();
  });
});
