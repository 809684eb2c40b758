import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { discussionHistory, storedDiscussion } from '../../src/schemas/history';
import { SERVER_DETAIL } from '../../src/schemas/messages';
import type { ChatRequest } from '../../server/providers/types';
import { createDiscussion } from '../../server/engine/store';
import { startTestServer, type TestServer } from './harness';
import {
  humanMessagesStored,
  makeAgents,
  offlineLlm,
  openDiscussion,
  sessionId,
  testProviders,
} from './engine/helpers';

// DELETE /discussion/{id}: per user, refused while running, and the frames and human messages go with it.

let hold: { gate: Promise<void>; open: () => void } | null = null;
const llm = offlineLlm(async (req: ChatRequest, next) => {
  if (hold && req.context?.turn === 1) await hold.gate;
  return next(req);
});

let s: TestServer;
let token: string;
let other: string;
let agentIds: string[];
beforeAll(async () => {
  s = await startTestServer({}, { providers: testProviders({ llm }) });
  ({ token } = await s.register());
  ({ token: other } = await s.register());
  agentIds = await makeAgents(s, token, 2);
});
afterAll(() => s.close());

const count = async (table: string, discussionId: string) =>
  Number(
    (
      await s.server.ctx.db.query<{ n: number }>(`SELECT count(*) AS n FROM ${table} WHERE discussion_id = $1`, [
        discussionId,
      ])
    )[0].n,
  );

describe('DELETE /discussion/{id}', () => {
  it('deletes a finished discussion with its frames and human messages; history lists it no more', async () => {
    let open!: () => void;
    hold = { gate: new Promise<void>((r) => (open = r)), open: () => open() };
    const sid = sessionId('delete');
    const c = await openDiscussion(s, '/ws/discuss', token, {
      agent_ids: agentIds,
      session_id: sid,
      context: 'Keep or sell the old press?',
      turns: 2,
    });
    await c.waitFor((f) => f.type === 'agent_status' && f.status === 'thinking');
    c.send({ type: 'human_message', text: 'Mind the budget.', timestamp: new Date().toISOString() });
    await humanMessagesStored(s, token, sid);
    hold.open();
    hold = null;
    await c.waitClose();

    const stored = storedDiscussion.parse((await s.api('GET', `/discussion/${sid}`, { token })).body);
    expect(stored.status).toBe('ended');
    expect(stored.frames.length).toBeGreaterThan(0);
    expect(stored.human_messages).toHaveLength(1);
    const turns = stored.frames.filter((f) => f.data.type === 'text').length;
    expect(turns).toBe(2);
    const listed = discussionHistory
      .parse((await s.api('GET', '/discussion/history', { token })).body)
      .find((h) => h.session_id === sid);
    expect(listed).toMatchObject({
      status: 'ended',
      end_reason: 'completed',
      message_count: turns + 1,
      frame_count: stored.frames.length,
    });

    // Another user cannot see it, and cannot delete it: a 404, not a 403 (its existence is not revealed).
    expect((await s.api('DELETE', `/discussion/${sid}`, { token: other })).status).toBe(404);
    expect((await s.api('GET', `/discussion/${sid}`, { token })).status).toBe(200);

    const del = await s.api('DELETE', `/discussion/${sid}`, { token });
    expect(del.status).toBe(204);
    expect((await s.api('GET', `/discussion/${sid}`, { token })).status).toBe(404);
    expect(await count('discussion_frames', stored.id)).toBe(0);
    expect(await count('discussion_human_messages', stored.id)).toBe(0);
    const history = discussionHistory.parse((await s.api('GET', '/discussion/history', { token })).body);
    expect(history.map((h) => h.session_id)).not.toContain(sid);
    // A second delete finds nothing.
    expect((await s.api('DELETE', `/discussion/${sid}`, { token })).status).toBe(404);
  });

  it("a fresh discussion under a deleted one's session_id repeats none of its frame ids", async () => {
    const sid = sessionId('reused');
    const ids = async () => {
      const c = await openDiscussion(s, '/ws/discuss', token, {
        agent_ids: agentIds,
        session_id: sid,
        context: 'Reuse the vats?',
        turns: 2,
      });
      await c.waitClose();
      const stored = storedDiscussion.parse((await s.api('GET', `/discussion/${sid}`, { token })).body);
      const frameIds = stored.frames
        .map((f) => (f.data as { id?: unknown }).id)
        .filter((id): id is string => typeof id === 'string');
      expect(frameIds.length).toBeGreaterThan(0);
      // Each id carries the discussion's own uuid.
      for (const id of frameIds) expect(id).toContain(stored.id);
      // The opening frame names it too: the owner's panel writes /discussions/{id} from it (the id History lists).
      expect(c.frames.find((f) => f.type === 'discussion_started')).toMatchObject({ discussion_id: stored.id });
      return frameIds;
    };
    const before = await ids();
    expect((await s.api('DELETE', `/discussion/${sid}`, { token })).status).toBe(204);
    const after = await ids();
    expect(after.filter((id) => before.includes(id))).toEqual([]);
  });

  it('refuses a running discussion with 409 and a clear detail, and keeps it', async () => {
    let open!: () => void;
    hold = { gate: new Promise<void>((r) => (open = r)), open: () => open() };
    const sid = sessionId('running');
    const c = await openDiscussion(s, '/ws/discuss', token, {
      agent_ids: agentIds,
      session_id: sid,
      context: 'Harvest by hand?',
      turns: 2,
    });
    try {
      await c.waitFor((f) => f.type === 'agent_status' && f.status === 'thinking');
      const r = await s.api('DELETE', `/discussion/${sid}`, { token });
      expect(r.status).toBe(409);
      expect(r.body).toEqual({ detail: SERVER_DETAIL.discussionRunning });
      expect((await s.api('GET', `/discussion/${sid}`, { token })).body.status).toBe('running');
    } finally {
      hold.open();
      hold = null;
    }
    await c.waitClose();
    expect((await s.api('DELETE', `/discussion/${sid}`, { token })).status).toBe(204);
  });

  it('needs a token, and 404s an id nobody has', async () => {
    expect((await s.api('DELETE', '/discussion/whatever')).status).toBe(401);
    expect((await s.api('DELETE', '/discussion/no-such-discussion', { token })).status).toBe(404);
  });
});

describe('GET /discussion/history', () => {
  it('is newest first (and does not page: one list of the latest 500)', async () => {
    const { token: t, userId } = await s.register();
    const db = s.server.ctx.db;
    for (const [i, sid] of ['s-old', 's-mid', 's-new'].entries()) {
      await createDiscussion(db, {
        id: `id-${sid}-${userId}`,
        userId,
        sessionId: sid,
        endpoint: 'basic',
        topic: sid,
        config: {},
      });
      await db.query('UPDATE discussions SET created_at = $2 WHERE id = $1', [
        `id-${sid}-${userId}`,
        new Date(Date.UTC(2026, 0, 1 + i)).toISOString(),
      ]);
    }
    const r = await s.api('GET', '/discussion/history', { token: t });
    expect(discussionHistory.parse(r.body).map((h) => h.session_id)).toEqual(['s-new', 's-mid', 's-old']);
  });
});
