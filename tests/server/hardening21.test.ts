import { existsSync } from 'node:fs';
import path from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { ENGINE_MESSAGES } from '../../src/schemas/messages';
import { tuneEngine } from '../../server/engine/hooks';
import { journalDir, recoverJournals } from '../../server/engine/journal';
import type { Db } from '../../server/db/db';
import { startTestServer, type TestServer } from './harness';
import {
  fakeSpeech,
  makeAgents,
  offlineLlm,
  openDiscussion,
  sessionId,
  testProviders,
  type Client,
} from './engine/helpers';

// Finding by finding: each test fails on the code before it and passes after.

// The model waits at the gate from turn `fromTurn` on, so a test can act while a discussion runs.
let gate: { promise: Promise<void>; open: () => void; fromTurn: number } | null = null;
const hold = (fromTurn = 1) => {
  let open!: () => void;
  gate = { promise: new Promise<void>((r) => (open = r)), open: () => open(), fromTurn };
  return gate;
};
const release = () => {
  gate?.open();
  gate = null;
};
const llm = offlineLlm(async (req, next) => {
  if (gate && (req.context?.turn ?? 0) >= gate.fromTurn) await gate.promise;
  return next(req);
});

const until = async (pred: () => Promise<boolean> | boolean, ms = 8_000) => {
  const end = Date.now() + ms;
  while (!(await pred())) {
    if (Date.now() > end) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 20));
  }
};
const human = (text: string) => ({ type: 'human_message', text, timestamp: new Date().toISOString() });
const errors = (c: Client) => c.frames.filter((f) => f.type === 'error').map((f) => String(f.message));

let s: TestServer;
let token: string;
let agentIds: string[];
beforeAll(async () => {
  // Refills too slow to matter within a test (one token per 100 s), so what a bucket lets through does not depend on
  // how fast a loaded machine reads the frames: deterministic under load.
  s = await startTestServer(
    {
      humanMessagesPerSecond: 0.01,
      humanMessageBurst: 5,
      clientFramesPerSecond: 0.01,
      clientFrameBurst: 40,
      maxHumanMessagesPerDiscussion: 3,
    },
    { providers: testProviders({ llm }) },
  );
  tuneEngine(s.server.ctx, { graceMs: 60_000 });
  ({ token } = await s.register());
  agentIds = await makeAgents(s, token, 2);
});
afterAll(() => s.close());

const stored = async (sid: string) => (await s.api('GET', `/discussion/${sid}`, { token })).body;
const humanRows = async (sid: string) => ((await stored(sid)).human_messages ?? []).length as number;

describe('1. flood control on client frames', () => {
  it('takes a burst, refuses the rest with an error frame that states the limit, and stores only what it took', async () => {
    const { token: t } = await s.register();
    const ids = await makeAgents(s, t, 2);
    const sid = sessionId('flood');
    hold(1);
    // A cap above the burst for this one discussion would hide nothing: the bucket (5) refuses first here only
    // after the cap (3), so the count of each refusal is exact.
    const c = await openDiscussion(s, '/ws/discuss', t, {
      agent_ids: ids,
      session_id: sid,
      context: 'Flood me',
      turns: 2,
    });
    await c.waitFor((f) => f.type === 'agent_status' && f.status === 'thinking');
    for (let i = 0; i < 30; i++) c.send(human(`message ${i} ${'x'.repeat(2000)}`));
    await c.waitFor(() => errors(c).length >= 27);
    const refused = errors(c);
    expect(refused.filter((m) => m === ENGINE_MESSAGES.humanMessageCap(3))).toHaveLength(2);
    expect(
      refused.filter((m) => m === ENGINE_MESSAGES.humanMessageLimit('0.01 per second (bursts of 5)')),
    ).toHaveLength(25);
    expect(refused).toHaveLength(27);
    release();
    await c.waitClose();
    expect(((await s.api('GET', `/discussion/${sid}`, { token: t })).body.human_messages ?? []).length).toBe(3);
    // Refusals are told, not stored: the stored frames hold none of them.
    expect(
      (await s.api('GET', `/discussion/${sid}`, { token: t })).body.frames.filter((f: any) => f.data.type === 'error'),
    ).toHaveLength(0);
  });

  it('the per-user bucket spans discussions: a second socket of the same user gets no fresh burst', async () => {
    const { token: t } = await s.register();
    const ids = await makeAgents(s, t, 2);
    hold(1);
    const sidA = sessionId('bucket-a');
    const a = await openDiscussion(s, '/ws/discuss', t, { agent_ids: ids, session_id: sidA, context: 'One', turns: 2 });
    await a.waitFor((f) => f.type === 'agent_status' && f.status === 'thinking');
    for (let i = 0; i < 3; i++) a.send(human(`a ${i}`));
    // The server has taken all three before the second socket speaks.
    await until(
      () => [...s.server.ctx.discussions.sessions.values()].find((x) => x.plan.sessionId === sidA)?.humanMessages === 3,
    );
    expect(errors(a)).toEqual([]);
    const b = await openDiscussion(s, '/ws/discuss', t, {
      agent_ids: ids,
      session_id: sessionId('bucket-b'),
      context: 'Two',
      turns: 2,
    });
    await b.waitFor((f) => f.type === 'agent_status' && f.status === 'thinking');
    for (let i = 0; i < 4; i++) b.send(human(`b ${i}`));
    await b.waitFor(() => errors(b).length >= 2);
    expect(errors(b)).toEqual([
      ENGINE_MESSAGES.humanMessageLimit('0.01 per second (bursts of 5)'),
      ENGINE_MESSAGES.humanMessageLimit('0.01 per second (bursts of 5)'),
    ]);
    release();
    await Promise.all([a.waitClose(), b.waitClose()]);
  });

  it('limits every client frame per socket, whatever its type', async () => {
    const sid = sessionId('frames');
    hold(1);
    const c = await openDiscussion(s, '/ws/discuss', token, {
      agent_ids: agentIds,
      session_id: sid,
      context: 'Junk',
      turns: 2,
    });
    await c.waitFor((f) => f.type === 'agent_status' && f.status === 'thinking');
    for (let i = 0; i < 100; i++) c.send({ type: 'junk', n: i });
    await c.waitFor(() => errors(c).length >= 100);
    const limited = errors(c).filter((m) => m.startsWith('Too many messages on this connection'));
    expect(limited).toHaveLength(60);
    expect(limited[0]).toBe(ENGINE_MESSAGES.clientFrameLimit('0.01 per second (bursts of 40)'));
    release();
    await c.waitClose();
  });
});

describe('2. resume_from: one rule for running, recently ended and stored discussions', () => {
  const values = fc.oneof(
    fc.constantFrom(
      2 ** 31,
      2 ** 31 - 1,
      2 ** 32,
      1e12,
      1e308,
      -1,
      -1e308,
      0.5,
      1.5,
      -0.5,
      Number.MAX_SAFE_INTEGER,
      Number.MIN_VALUE,
    ),
    fc.double({ noNaN: true, noDefaultInfinity: true }),
    fc.integer({ min: -1e9, max: 1e9 }),
    fc.string({ maxLength: 6 }),
    fc.boolean(),
    fc.constant([1]),
    fc.constant({ n: 1 }),
  );
  const seenSockets = new Set<unknown>();
  const liveSession = (sid: string) =>
    [...s.server.ctx.discussions.sessions.values()].find((x) => x.plan.sessionId === sid)!;
  /** What a socket gets for a resume_from: the frames replayed (seqs implied by order) and how it closes. */
  const attach = async (sid: string, resumeFrom: unknown) => {
    const c = await openDiscussion(s, '/ws/discuss', token, {
      agent_ids: agentIds,
      session_id: sid,
      context: 'Resume me',
      turns: 2,
      resume_from: resumeFrom,
    });
    return c;
  };
  const expectRule = async (sid: string, v: unknown, total: number, live: boolean) => {
    const c = await attach(sid, v);
    if (typeof v !== 'number') {
      // Refused with a clear error frame before anything is read.
      const closed = await c.waitClose();
      expect(closed.code).toBe(1003);
      expect(errors(c)).toEqual([ENGINE_MESSAGES.badResumeFrom]);
      return;
    }
    const from = Math.min(total, Math.max(0, Math.floor(v)));
    if (live) {
      // The replay is written in the same step that attaches the socket; once the server holds the new socket, the
      // pong to a ping sent then arrives after the last replayed frame: waits on events, not on the clock.
      await until(() => {
        const w = (liveSession(sid) as unknown as { watcher: { current: { ws: unknown } | null } }).watcher.current?.ws;
        return !!w && !seenSockets.has(w) && !!seenSockets.add(w);
      });
      const pong = new Promise((r) => c.ws.once('pong', r));
      c.ws.ping();
      await pong;
      expect(c.kept.length).toBe(total - from);
      c.ws.terminate();
    } else {
      const closed = await c.waitClose();
      expect(closed.code).toBe(1000);
      expect(c.kept.length).toBe(total - from);
    }
  };

  it('clamps numbers and refuses non-numbers, never 1011', async () => {
    const running = sessionId('resume-running');
    hold(2);
    const r = await openDiscussion(s, '/ws/discuss', token, {
      agent_ids: agentIds,
      session_id: running,
      context: 'Resume me',
      turns: 2,
    });
    await r.waitFor(
      (f) =>
        f.type === 'agent_status' && f.status === 'thinking' && r.frames.filter((x) => x.type === 'text').length === 1,
    );
    r.ws.terminate();
    const liveTotal = [...s.server.ctx.discussions.sessions.values()].find(
      (x) => x.plan.sessionId === running,
    )!.frameCount;

    await fc.assert(
      fc.asyncProperty(values, (v) => expectRule(running, v, liveTotal, true)),
      { numRuns: 25 },
    );
    release();

    const ended = sessionId('resume-ended');
    const e = await openDiscussion(s, '/ws/discuss', token, {
      agent_ids: agentIds,
      session_id: ended,
      context: 'Resume me',
      turns: 2,
    });
    await e.waitClose();
    const endedTotal = e.kept.length;
    await fc.assert(
      fc.asyncProperty(values, (v) => expectRule(ended, v, endedTotal, false)),
      { numRuns: 25 },
    );

    // Stored only: out of memory (as after the grace period or a restart).
    for (const [k, v] of s.server.ctx.discussions.sessions)
      if (v.plan.sessionId === ended) s.server.ctx.discussions.sessions.delete(k);
    await fc.assert(
      fc.asyncProperty(values, (v) => expectRule(ended, v, endedTotal, false)),
      { numRuns: 25 },
    );
    for (const v of [2 ** 31, 1e12, 1e308]) await expectRule(ended, v, endedTotal, false);
  }, 60_000);
});

describe('3, 4. a deleted or ended discussion', () => {
  it('DELETE ends everything: no replay, no re-attach, and the reused session_id starts a new discussion', async () => {
    const sid = sessionId('deleted');
    const first = await openDiscussion(s, '/ws/discuss', token, {
      agent_ids: agentIds,
      session_id: sid,
      context: 'Old topic',
      turns: 2,
    });
    await first.waitClose();
    expect((await s.api('DELETE', `/discussion/${sid}`, { token })).status).toBe(204);
    expect([...s.server.ctx.discussions.sessions.values()].some((x) => x.plan.sessionId === sid)).toBe(false);

    const again = await openDiscussion(s, '/ws/discuss', token, {
      agent_ids: agentIds,
      session_id: sid,
      context: 'New topic',
      turns: 2,
    });
    await again.waitClose();
    const started = again.kept.find((f) => f.type === 'discussion_started');
    expect(started).toBeDefined();
    expect(JSON.stringify(again.kept)).not.toContain('Old topic');
    expect(again.kept.filter((f) => f.type === 'text')).toHaveLength(2);
    expect((await stored(sid)).topic).toBe('New topic');
  });

  it('a human message or a stop on a re-attach after the end gets "discussion has ended" and is not stored', async () => {
    const sid = sessionId('after-end');
    const first = await openDiscussion(s, '/ws/discuss', token, {
      agent_ids: agentIds,
      session_id: sid,
      context: 'Ends soon',
      turns: 2,
    });
    await first.waitClose();
    const before = (await stored(sid)).frame_count;
    const session = [...s.server.ctx.discussions.sessions.values()].find((x) => x.plan.sessionId === sid)!;
    const told = vi.spyOn(session, 'tell');
    // One frame is replayed; the moment it arrives the re-attached socket is the session's, and the client speaks.
    const late = await openDiscussion(s, '/ws/discuss', token, {
      agent_ids: agentIds,
      session_id: sid,
      context: 'Ends soon',
      turns: 2,
      resume_from: before - 1,
    });
    late.ws.once('message', () => {
      late.send(human('Too late?'));
      late.send({ type: 'stop' });
    });
    await late.waitClose();
    // The server's answers (the socket may already be closing, so they are checked where they are made).
    await until(() => told.mock.calls.length === 2);
    expect(told.mock.calls.map(([f]) => (f as { message: string }).message)).toEqual([
      ENGINE_MESSAGES.discussionEnded,
      ENGINE_MESSAGES.discussionEndedStop,
    ]);
    told.mockRestore();
    expect(await humanRows(sid)).toBe(0);
    expect((await stored(sid)).frame_count).toBe(before);
    expect(session.isLive).toBe(false);
  });
});

describe('5. no internal error text reaches a client', () => {
  it('a database error becomes a short message with a reference; the log has the full error under it', async () => {
    const sid = sessionId('db-error');
    hold(1);
    const c = await openDiscussion(s, '/ws/discuss', token, {
      agent_ids: agentIds,
      session_id: sid,
      context: 'Break the store',
      turns: 2,
    });
    await c.waitFor((f) => f.type === 'agent_status' && f.status === 'thinking');
    const db = s.server.ctx.db as Db;
    const original = db.query.bind(db);
    const spy = vi.spyOn(s.server.app.log, 'error');
    const q = vi.spyOn(db, 'query').mockImplementation((async (sql: string, params?: unknown[]) => {
      if (sql.includes('INSERT INTO discussion_human_messages')) {
        throw new Error(
          'insert or update on table "discussion_human_messages" violates foreign key constraint "discussion_human_messages_discussion_id_fkey"',
        );
      }
      return original(sql, params);
    }) as Db['query']);
    try {
      c.send(human('Store me'));
      const err = await c.waitFor((f) => f.type === 'error');
      expect(err.message).toMatch(
        /^Your message reached the agents but could not be stored because of a server error \(reference [0-9a-f]{8}\)\.$/,
      );
      expect(err.message).not.toContain('discussion_human_messages');
      const ref = /reference ([0-9a-f]{8})/.exec(err.message)![1];
      const logged = spy.mock.calls.find(([obj]) => (obj as { ref?: string })?.ref === ref);
      expect(String((logged![0] as { err: Error }).err.message)).toContain('violates foreign key constraint');
    } finally {
      q.mockRestore();
      spy.mockRestore();
      release();
    }
    await c.waitClose();
  });

  it('an HTTP 500 says "Internal server error" with a reference, never the error text', async () => {
    const db = s.server.ctx.db as Db;
    const original = db.query.bind(db);
    const q = vi.spyOn(db, 'query').mockImplementation((async (sql: string, params?: unknown[]) => {
      if (sql.includes('FROM agents')) throw new Error('relation "agents" does not exist');
      return original(sql, params);
    }) as Db['query']);
    try {
      const r = await s.api('GET', '/agents/', { token });
      expect(r.status).toBe(500);
      expect(r.body.detail).toMatch(/^Internal server error \(reference [0-9a-f]{8}\)\.$/);
    } finally {
      q.mockRestore();
    }
  });
});

describe('6. sent means stored', () => {
  it('every frame a client was sent is journaled first, and a start after a kill stores what the database lacked', async () => {
    const sid = sessionId('kill');
    const db = s.server.ctx.db as Db;
    const original = db.query.bind(db);
    let open!: () => void;
    const storeGate = new Promise<void>((r) => (open = r));
    // The background batch never reaches the database while the gate is shut: as if the process died first.
    const q = vi.spyOn(db, 'query').mockImplementation((async (sql: string, params?: unknown[]) => {
      if (sql.startsWith('INSERT INTO discussion_frames') && !sql.includes('ON CONFLICT')) await storeGate;
      return original(sql, params);
    }) as Db['query']);
    try {
      const c = await openDiscussion(s, '/ws/discuss', token, {
        agent_ids: agentIds,
        session_id: sid,
        context: 'Kill me',
        turns: 2,
      });
      await c.waitClose();
      const seen = c.kept;
      expect(seen.length).toBeGreaterThan(3);
      expect((await stored(sid)).frames).toEqual([]);
      // The next start's recovery (run here on the same database) stores every frame the client saw.
      const recovered = await recoverJournals(db, journalDir(s.server.ctx.config.dataDir), { warn: () => {} });
      expect(recovered).toBe(seen.length);
      expect((await stored(sid)).frames.map((f: { data: unknown }) => f.data)).toEqual(seen);
    } finally {
      q.mockRestore();
      open();
    }
  });

  it('removes the journal once a discussion has ended and is stored', async () => {
    const sid = sessionId('journal-gone');
    const c = await openDiscussion(s, '/ws/discuss', token, {
      agent_ids: agentIds,
      session_id: sid,
      context: 'Clean up',
      turns: 2,
    });
    await c.waitClose();
    const id = (await stored(sid)).id as string;
    await until(() => !existsSync(path.join(journalDir(s.server.ctx.config.dataDir), `${id}.jsonl`)));
  });
});

describe('7. /health names no internal service without the operator token', () => {
  it('states only for everyone, details for the operator', async () => {
    const o = await startTestServer({ ollamaHost: 'http://127.0.0.1:9', operatorToken: 'operator-secret-123' });
    try {
      const { token: user } = await o.register();
      for (const t of [undefined, user]) {
        const r = await o.api('GET', '/health', { token: t });
        const text = JSON.stringify(r.body);
        expect(text).not.toMatch(/https?:|127\.0\.0\.1|11434|:9\b|\/usr\/|espeak|pglite/i);
        expect(r.body.components.llm.status).toBeDefined();
      }
      const op = await o.api('GET', '/health', { token: 'operator-secret-123' });
      expect(JSON.stringify(op.body)).toContain('127.0.0.1:9');
    } finally {
      await o.close();
    }
  });
});

describe('8. speech quota during a discussion', () => {
  it('stops speech with one tts_error once the quota is reached; the discussion goes on in text', async () => {
    const q = await startTestServer({ ttsQuotaMb: 0.000001 }, { providers: testProviders({ speech: fakeSpeech() }) });
    try {
      tuneEngine(q.server.ctx, { ackTimeoutMs: 50 });
      const { token: t } = await q.register();
      const ids = await makeAgents(q, t, 2);
      const config = {
        agent_ids: ids,
        session_id: sessionId('quota'),
        topic: 'Speak up',
        mode: 'natural',
        max_rounds: 2,
        turns_per_round: 1,
        pause_between_turns: 0,
        tts: true,
        tts_config: null,
        auto_stop_on_consensus: false,
        response_format: 'bullet',
        citation_style: 'inline',
      };
      const c = await openDiscussion(q, '/ws/hybrid', t, config, 'hybrid');
      await c.waitClose(20_000);
      expect(c.invalid).toEqual([]);
      // The first clip is made under the quota; it then holds more than the quota, so speech stops once.
      expect(c.frames.filter((f) => f.type === 'audio_message')).toHaveLength(1);
      const ttsErrors = c.frames.filter((f) => f.type === 'tts_error');
      expect(ttsErrors.map((f) => f.error)).toEqual([ENGINE_MESSAGES.speechQuotaReached(0.000001)]);
      expect(c.frames.filter((f) => f.type === 'agent_message').length).toBeGreaterThanOrEqual(3);
    } finally {
      await q.close();
    }
  });
});
