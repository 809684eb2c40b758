import { randomUUID } from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { WebSocket } from 'ws';
import {
  CLOSE_INTERNAL_ERROR, CLOSE_NORMAL, CLOSE_POLICY_VIOLATION, CLOSE_UNSUPPORTED_DATA, ENDPOINTS, type EndpointKey,
} from '../../src/schemas/constants';
import { parseFrame } from '../../src/schemas/frames';
import { ENGINE_MESSAGES } from '../../src/schemas/messages';
import { socketUser } from '../auth/guard';
import type { AppContext } from '../context';
import { discussionClientFrame, loadAgents, parseConfiguration } from '../engine/configure';
import { tuningOf } from '../engine/hooks';
import { buildPlan } from '../engine/plan';
import { sessionsOf } from '../engine/registry';
import { clusterOf } from '../engine/cluster';
import { liveDiscussionMachine, researchOf } from '../engine/runtime';
import { DiscussionSession, sessionKey } from '../engine/session';
import { runningDiscussionsOf } from './stats';
import { BucketMap, describeRate, TokenBucket, type Rate } from '../engine/flood';
import { incident } from '../http/incident';
import { journalDir, recoverJournals } from '../engine/journal';
import { abandonLeftovers, createDiscussion, createDiscussionWithinLimit, loadDiscussion, recordHumanMessage } from '../engine/store';

// The discussion sockets (docs/product.md#discussions-calls) and their debug aliases.
//
// Protocol, server side:
// - `?test=true` is a probe: one {type:'probe', endpoint, ok:true} frame and close 1000, before any token check or
//   database work, so the panel's 2 s probe is answered even under load and reveals nothing.
// - Otherwise `?token=` must name a user (else close 1008 'Authentication failed'). The first message is the
//   configuration, checked with the endpoint's schema (error frame + close 1003 when it is not, or when an agent
//   is not the user's).
// - Resume: a configuration whose session_id names one of the user's discussions that is still running (or ended
//   less than a grace period ago) attaches to it: every frame after `resume_from` (default: what the previous
//   socket received) is replayed in order, then live frames follow. What a socket received is known from pings:
//   each burst of frames is followed by a ping carrying its last seq, and the client's automatic pong confirms it,
//   so a replay never has a gap (at worst it repeats the last unconfirmed burst; a client that counts frames can
//   send `resume_from` and get exactly the rest). A dropped socket (any close but 1000) leaves
//   the discussion running for DISCUSSION_RESUME_GRACE_MS; then it is stopped and stored as abandoned. A close
//   1000 without `stop` ends it. An older finished discussion is replayed from storage and the socket closed 1000.
// - Later client frames: human_message, stop, status 'played' / audio_acknowledgment; anything else is answered
//   with a non-fatal error frame.

const SOCKETS: Array<[string, EndpointKey]> = [
  ['/ws/discuss', 'basic'],
  ['/discussion/ws/discuss', 'basic'],
  ['/ws/enhanced', 'enhanced'],
  ['/discussion/ws/enhanced', 'enhanced'],
  ['/ws/multi_round_reasoning', 'multi_round'],
  ['/ws/hybrid', 'hybrid'],
  ['/hybrid-discussion/ws', 'hybrid'],
];

const sendJson = (ws: WebSocket, frame: object) => ws.readyState === ws.OPEN && ws.send(JSON.stringify({ ...frame, timestamp: new Date().toISOString() }));

function refuse(ws: WebSocket, message: string, code = CLOSE_UNSUPPORTED_DATA) {
  sendJson(ws, { type: 'error', message, fatal: true });
  if (ws.readyState === ws.OPEN) ws.close(code, message.slice(0, 120));
}

export async function discussionSocketRoutes(app: FastifyInstance) {
  const { ctx } = app;
  // Frames a killed process had sent but not yet stored (engine/journal.ts) go in first.
  await recoverJournals(ctx.db, journalDir(ctx.config.dataDir), app.log).catch((err) => app.log.warn({ err }, 'could not recover frame journals'));
  const cluster = clusterOf(ctx);
  await abandonLeftovers(ctx.db, !!cluster).catch((err) => app.log.warn({ err }, 'could not mark leftover discussions abandoned'));
  if (cluster) {
    // More than one process (engine/cluster.ts): client frames that reach the owner from another process, and
    // sockets that become local when this process takes their discussion over.
    cluster.onClientFrame = (session, raw) => onClientFrame(ctx, session, raw);
    cluster.attachLocal = (ws, session, resumeFrom) => {
      const bucket = socketBucket(ctx);
      ws.on('message', (d) => onClientFrame(ctx, session, String(d), bucket));
      ws.on('close', (code) => session.detach(ws, code));
      session.attach(ws, resumeFrom);
    };
    cluster.start();
  }

  for (const [path, endpoint] of SOCKETS) {
    app.get(path, { websocket: true }, (ws: WebSocket, req: FastifyRequest) => {
      const q = req.query as Record<string, string | undefined>;
      if (q.test === 'true' || q.test === '1') {
        ws.send(JSON.stringify({ type: 'probe', endpoint: path, ok: true }));
        ws.close(CLOSE_NORMAL, 'probe');
        return;
      }
      void serveDiscussion(ctx, app, ws, req, endpoint);
    });
  }
}

async function serveDiscussion(ctx: AppContext, app: FastifyInstance, ws: WebSocket, req: FastifyRequest, endpoint: EndpointKey) {
  // Hold what arrives while the token is checked: the panel sends its configuration the moment the socket opens.
  const early: string[] = [];
  let closed = false;
  const hold = (d: unknown) => early.push(String(d));
  ws.on('message', hold);
  ws.once('close', () => (closed = true));
  const userId = await socketUser(ctx, req).catch(() => null);
  if (closed) return;
  if (!userId) return ws.close(CLOSE_POLICY_VIOLATION, 'Authentication failed');
  ws.off('message', hold);

  let session: DiscussionSession | null = null;
  let configuring = false;
  const bucket = socketBucket(ctx);
  const configTimer = setTimeout(() => {
    if (!session) refuse(ws, ENGINE_MESSAGES.badConfig(`no configuration received within ${Math.round(tuningOf(ctx).configTimeoutMs / 1000)} s`));
  }, tuningOf(ctx).configTimeoutMs);

  const onMessage = async (raw: string) => {
    if (session) return onClientFrame(ctx, session, raw, bucket);
    if (configuring) return; // a second message before the first was handled: ignored, the panel sends one
    configuring = true;
    clearTimeout(configTimer);
    try {
      session = await configure(ctx, app, ws, userId, endpoint, raw);
    } catch (err) {
      refuse(ws, incident(app.log, err, 'The discussion could not be started because of a server error'), CLOSE_INTERNAL_ERROR);
    }
  };
  ws.on('message', (d) => void onMessage(String(d)));
  ws.on('close', (code) => {
    clearTimeout(configTimer);
    session?.detach(ws, code);
  });
  for (const raw of early) void onMessage(raw);
}

async function configure(ctx: AppContext, app: FastifyInstance, ws: WebSocket, userId: string, endpoint: EndpointKey, raw: string): Promise<DiscussionSession | null> {
  const parsed = parseConfiguration(endpoint, raw);
  if (!parsed.ok) return refuse(ws, parsed.why), null;
  if (parsed.agentIds.length < 2) return refuse(ws, ENGINE_MESSAGES.badConfig('at least two different agents are needed')), null;
  const maxAgents = ctx.config.maxAgentsPerDiscussion;
  if (maxAgents > 0 && parsed.agentIds.length > maxAgents) {
    return refuse(ws, ENGINE_MESSAGES.badConfig(`at most ${maxAgents} agents may take part in one discussion (MAX_AGENTS_PER_DISCUSSION); ${parsed.agentIds.length} were named`), CLOSE_POLICY_VIOLATION), null;
  }

  const sessions = sessionsOf(ctx);
  const key = sessionKey(userId, parsed.sessionId);
  const resume = (s: DiscussionSession) => {
    if (s.plan.endpoint !== endpoint) return refuse(ws, ENGINE_MESSAGES.badConfig(`session_id ${parsed.sessionId} belongs to a discussion on another endpoint`)), null;
    s.attach(ws, parsed.resumeFrom);
    return s;
  };
  const live = sessions.get(key);
  if (live) return resume(live);

  const agents = await loadAgents(ctx.db, userId, parsed.agentIds);
  if (ws.readyState !== ws.OPEN) return null;
  if (!agents) return refuse(ws, ENGINE_MESSAGES.unknownAgents), null;

  const stored = await loadDiscussion(ctx.db, userId, parsed.sessionId, parsed.resumeFrom ?? 0);
  const appeared = sessions.get(key);
  if (appeared) return resume(appeared);
  const cluster = clusterOf(ctx);
  if (stored && cluster && stored.status === 'running') {
    // More than one process: it runs elsewhere, or ran on a process that died (its lease ran out: take it over).
    if (stored.endpoint !== ENDPOINTS[endpoint].path) return refuse(ws, ENGINE_MESSAGES.badConfig(`session_id ${parsed.sessionId} belongs to a discussion on another endpoint`)), null;
    const claimed = await cluster.claim(stored.id);
    if (claimed) return resume(claimed);
    const here = sessions.get(key);
    if (here) return resume(here);
    if (ws.readyState === ws.OPEN) cluster.watchRemote(ws, stored.id, parsed.resumeFrom ?? 0);
    return null;
  }
  if (stored) {
    // Finished long ago: what it said is all there is.
    for (const f of stored.frames) if (ws.readyState === ws.OPEN) ws.send(JSON.stringify(f.data));
    if (ws.readyState === ws.OPEN) ws.close(CLOSE_NORMAL, 'Discussion ended');
    return null;
  }

  // Checked after the last await, so two sockets of one user cannot both slip under the limit. With more than one
  // process the count is the database's (createDiscussionWithinLimit); PGlite is one process and counts here.
  const maxRunning = ctx.config.maxRunningDiscussionsPerUser;
  const overLimit = () =>
    refuse(ws, `You already have ${maxRunning} discussions running, the most one user may run at once (MAX_RUNNING_DISCUSSIONS_PER_USER). Stop one, or wait for one to end, and start again.`, CLOSE_POLICY_VIOLATION);
  const clustered = ctx.db.kind === 'postgres';
  const durable = !!clusterOf(ctx);
  if (!clustered && maxRunning > 0 && runningDiscussionsOf(ctx, userId) >= maxRunning) return overLimit(), null;
  const plan = buildPlan(parsed.input, agents, tuningOf(ctx));
  const discussionId = randomUUID();
  const session = new DiscussionSession(ctx, userId, discussionId, ENDPOINTS[endpoint].path, plan, liveDiscussionMachine(ctx, userId, app.log), app.log, {
    speechAvailable: ctx.providers.speech.available(),
    researchAvailable: researchOf(ctx) !== null,
    durable,
  });
  sessions.set(key, session);
  session.whenGone(() => sessions.get(key) === session && sessions.delete(key));
  try {
    const config = { ...parsed.input.config, token: undefined, panel: 'panel' in parsed.input ? parsed.input.panel : 'standard' };
    const row = { id: discussionId, userId, sessionId: parsed.sessionId, endpoint: ENDPOINTS[endpoint].path, topic: parsed.topic, config, ownerId: ctx.instanceId, leaseMs: ctx.config.discussionLeaseMs };
    if (clustered) {
      if (!(await createDiscussionWithinLimit(ctx.db, row, maxRunning))) {
        sessions.delete(key);
        return overLimit(), null;
      }
    } else await createDiscussion(ctx.db, row);
  } catch (err) {
    sessions.delete(key);
    throw err;
  }
  session.attach(ws);
  session.start();
  // The client may have gone while the discussion was being set up: treat it as a drop, not a loss.
  if (ws.readyState !== ws.OPEN) session.detach(ws, 1006);
  return session;
}

/** Every client frame of one socket: CLIENT_FRAMES_PER_SECOND with bursts of CLIENT_FRAME_BURST. */
const socketBucket = (ctx: AppContext) => new TokenBucket(clientFrameRate(ctx));
const clientFrameRate = (ctx: AppContext): Rate => ({ perSecond: ctx.config.clientFramesPerSecond, burst: ctx.config.clientFrameBurst });
const humanRate = (ctx: AppContext): Rate => ({ perSecond: ctx.config.humanMessagesPerSecond, burst: ctx.config.humanMessageBurst });

/** Human messages per user, across all of the user's sockets (one map per server). */
const humanBuckets = new WeakMap<AppContext, BucketMap>();
const humanBucketsOf = (ctx: AppContext) => {
  let m = humanBuckets.get(ctx);
  if (!m) humanBuckets.set(ctx, (m = new BucketMap(() => humanRate(ctx))));
  return m;
};

/**
 * A client frame after the configuration. Answers about the client's own frame (refused by flood control, sent
 * after the end, malformed) go to its socket only and are not stored: a flood of refused frames must not turn
 * into a flood of stored ones. A refused human message is never stored nor shown to the agents.
 */
function onClientFrame(ctx: AppContext, session: DiscussionSession, raw: string, bucket?: TokenBucket) {
  const tell = (message: string) => session.tell({ type: 'error', message, fatal: false });
  const limited = bucket !== undefined && !bucket.take();
  const res = parseFrame(discussionClientFrame, raw);
  // A flood never keeps the user from stopping: a well-formed stop passes an empty bucket.
  if (limited && !(res.kind === 'frame' && res.frame.type === 'stop')) return tell(ENGINE_MESSAGES.clientFrameLimit(describeRate(clientFrameRate(ctx))));
  if (res.kind === 'unknown') return tell(`Ignored a message of unknown type "${res.type}".`);
  if (res.kind === 'malformed') return tell(`Ignored a malformed "${res.type}" message: ${res.error.replace(/\s*\n\s*/g, '; ')}`);
  const frame = res.frame;
  switch (frame.type) {
    case 'stop':
      if (!session.isLive) return tell(ENGINE_MESSAGES.discussionEndedStop);
      return session.stop('stopped');
    case 'human_message': {
      if (!session.isLive) return tell(ENGINE_MESSAGES.discussionEnded);
      if (!session.plan.humanParticipation) return tell('Human participation is off for this discussion; the message was not added.');
      if (!humanBucketsOf(ctx).take(session.userId)) return tell(ENGINE_MESSAGES.humanMessageLimit(describeRate(humanRate(ctx))));
      const max = ctx.config.maxHumanMessagesPerDiscussion;
      if (max > 0 && session.humanMessages >= max) return tell(ENGINE_MESSAGES.humanMessageCap(max));
      session.humanMessages++;
      void recordHumanMessage(ctx.db, session.discussionId, frame.text, frame.timestamp).catch((err) =>
        tell(incident(session.log, err, 'Your message reached the agents but could not be stored because of a server error', { discussion: session.discussionId })),
      );
      return session.deliver({ type: 'human.message', text: frame.text });
    }
    case 'status':
      return session.deliver({ type: 'audio.ack', audioId: frame.audio_id });
    case 'audio_acknowledgment':
      return session.deliver({ type: 'audio.ack', audioId: frame.audio_id });
  }
}
