import { randomUUID } from 'node:crypto';
import type { WebSocket } from 'ws';
import {
  CLOSE_NORMAL,
  CLOSE_TRY_AGAIN_LATER,
  CLOSE_UNSUPPORTED_DATA,
  ENDPOINTS,
  type DiscussionOrigin,
  type EndpointKey,
} from '../../src/schemas/constants';
import { ENGINE_MESSAGES } from '../../src/schemas/messages';
import { modelLabelOf } from '../models/service';
import type { AppContext } from '../context';
import { loadPriorTranscript, type PriorTranscript } from './continuation';
import { loadAgents, type Configured } from './configure';
import { ownsSources, withOwnSources } from '../sources/forDiscussion';
import { tuningOf } from './hooks';
import { buildPlan } from './buildPlan';
import { budgetFor, DailyBudgetSpent } from './budget';
import type { AgentRef } from './plan';
import { openSession } from './open';
import { sessionKey, type DiscussionSession, type SessionLog } from './session';
import { createDiscussion, createDiscussionWithinLimit, loadDiscussion } from './store';
import type { UsageMeter } from './usage';

// The one entrance to a discussion for a socket whose configuration parsed: the socket route calls `enter` and
// gets the session the socket now belongs to, or null when the socket was answered otherwise. In order:
//   attach — a discussion of this session id runs here: the socket joins it from `resume_from`
//   claim  — it runs on another process (PostgreSQL): take it over when its owner is gone …
//   watch  — … else watch it from here, its frames read from the database
//   replay — it ended long ago: its stored frames, then close 1000
//   open   — a new discussion, within the user's running limit

export type Parsed = Extract<Configured, { ok: true }>;
type StoredDiscussion = NonNullable<Awaited<ReturnType<typeof loadDiscussion>>>;

interface Entrance {
  ctx: AppContext;
  log: SessionLog;
  ws: WebSocket;
  userId: string;
  endpoint: EndpointKey;
  parsed: Parsed;
}

const sendJson = (ws: WebSocket, frame: object) =>
  ws.readyState === ws.OPEN && ws.send(JSON.stringify({ ...frame, timestamp: new Date().toISOString() }));

/** A fatal error frame saying why, then the close (1003 unless told). */
export function refuse(ws: WebSocket, message: string, code = CLOSE_UNSUPPORTED_DATA, reason = message) {
  sendJson(ws, { type: 'error', message, fatal: true });
  // A close reason holds at most 123 bytes.
  if (ws.readyState === ws.OPEN)
    ws.close(
      code,
      Buffer.from(reason)
        .subarray(0, 123)
        .toString()
        .replace(/\uFFFD$/, ''),
    );
}

/**
 * A limit reached: 1013 (try again later), never 1008, which the client reads as a failed sign-in. The error frame
 * names the setting; the close reason is the short sentence the panel shows as it is.
 */
export const refuseAtLimit = (ws: WebSocket, message: string, sentence: string) =>
  refuse(ws, message, CLOSE_TRY_AGAIN_LATER, sentence);

const otherEndpoint = (e: Entrance) =>
  refuse(
    e.ws,
    ENGINE_MESSAGES.badConfig(`session_id ${e.parsed.sessionId} belongs to a discussion on another endpoint`),
  );

export async function enter(e: Entrance): Promise<DiscussionSession | null> {
  const key = sessionKey(e.userId, e.parsed.sessionId);
  const here = () => e.ctx.discussions.sessions.get(key);
  const live = here();
  if (live) return attach(e, live);

  const found = await loadAgents(e.ctx.db, e.userId, e.parsed.agentIds);
  if (e.ws.readyState !== e.ws.OPEN) return null;
  if (!found) return (refuse(e.ws, ENGINE_MESSAGES.unknownAgents), null);
  const sourceIds = e.parsed.input.config.source_ids ?? [];
  if (!(await ownsSources(e.ctx.db, e.userId, sourceIds))) return (refuse(e.ws, ENGINE_MESSAGES.unknownSources), null);
  const agents = await withOwnSources(e.ctx.db, found);
  const labels = await Promise.all(agents.map((a) => modelLabelOf(e.ctx, e.userId, a.model)));

  const stored = await loadDiscussion(e.ctx.db, e.userId, e.parsed.sessionId, e.parsed.resumeFrom ?? 0);
  const appeared = here();
  if (appeared) return attach(e, appeared);
  if (stored && e.ctx.discussions.cluster && stored.status === 'running') return claimOrWatch(e, stored, here);
  if (stored) return (replay(e.ws, stored), null);
  let prior: PriorTranscript | undefined;
  if (e.parsed.continuedFrom) {
    const found = await loadPriorTranscript(e.ctx.db, e.userId, e.parsed.continuedFrom);
    if (!found.ok) return (refuse(e.ws, found.why), null);
    prior = found.prior;
    const raced = here();
    if (raced) return attach(e, raced);
    if (e.ws.readyState !== e.ws.OPEN) return null;
  }
  return open(e, agents, key, labels, prior);
}

function attach(e: Entrance, session: DiscussionSession): DiscussionSession | null {
  if (session.plan.endpoint !== e.endpoint) return (otherEndpoint(e), null);
  session.attach(e.ws, e.parsed.resumeFrom);
  return session;
}

/** More than one process: it runs elsewhere, or ran on a process that died (its lease ran out: take it over). */
async function claimOrWatch(
  e: Entrance,
  stored: StoredDiscussion,
  here: () => DiscussionSession | undefined,
): Promise<DiscussionSession | null> {
  const cluster = e.ctx.discussions.cluster!;
  if (stored.endpoint !== ENDPOINTS[e.endpoint].path) return (otherEndpoint(e), null);
  const claimed = (await cluster.claim(stored.id)) ?? here();
  if (claimed) return attach(e, claimed);
  if (e.ws.readyState === e.ws.OPEN) cluster.watchRemote(e.ws, stored.id, e.parsed.resumeFrom ?? 0);
  return null;
}

/** Finished long ago: what it said is all there is. */
function replay(ws: WebSocket, stored: StoredDiscussion) {
  for (const f of stored.frames) if (ws.readyState === ws.OPEN) ws.send(JSON.stringify(f.data));
  if (ws.readyState === ws.OPEN) ws.close(CLOSE_NORMAL, 'Discussion ended');
}

async function open(
  e: Entrance,
  agents: AgentRef[],
  key: string,
  /** Each agent's model as its owner reads it (modelLabelOf), stored with the participants. */
  labels: readonly (string | null)[],
  prior?: PriorTranscript,
): Promise<DiscussionSession | null> {
  const { ctx, ws, userId, endpoint, parsed } = e;
  const maxRunning = ctx.config.maxRunningDiscussionsPerUser;
  const started = await startDiscussion(ctx, {
    userId,
    endpoint,
    parsed,
    agents,
    labels,
    log: e.log,
    prior,
    key,
  }).catch((err: unknown) => {
    if (!(err instanceof DailyBudgetSpent)) throw err;
    refuseAtLimit(ws, err.message, `Your daily budget of ${err.daily.toLocaleString('en-US')} tokens is spent.`);
    return 'refused' as const;
  });
  if (started === 'refused') return null;
  if (!started)
    return (
      refuseAtLimit(
        ws,
        `You already have ${maxRunning} discussions running, the most one user may run at once (MAX_RUNNING_DISCUSSIONS_PER_USER). Stop one, or wait for one to end, and start again.`,
        `You already have ${maxRunning} discussions running. Stop one or wait for one to end, then try again.`,
      ),
      null
    );
  started.attach(ws);
  started.start();
  // The client may have gone while the discussion was being set up: treat it as a drop, not a loss.
  if (ws.readyState !== ws.OPEN) started.detach(ws, 1006);
  return started;
}

export interface StartSpec {
  userId: string;
  endpoint: EndpointKey;
  parsed: Parsed;
  agents: AgentRef[];
  /** Each agent's model as its owner reads it (modelLabelOf), stored with the participants. */
  labels: readonly (string | null)[];
  log: SessionLog;
  prior?: PriorTranscript;
  /** The registry key (sessionKey); computed when absent. */
  key?: string;
  /** Where it was asked from (History's `origin`); absent: the app. */
  origin?: DiscussionOrigin;
  meter?: UsageMeter;
}

async function warmProviders(ctx: AppContext, agents: readonly { model: string }[]) {
  const providers = new Set(agents.map((a) => ctx.providers.llm.forModel(a.model)));
  await Promise.all([...providers].map((p) => p.warm?.().catch(() => undefined)));
}

/**
 * Makes and stores a new discussion within the user's running limit, not yet started: the socket's entrance and
 * the surfaces for other clients (/v1, /mcp, which read its frames with no socket) share it. Null at the limit.
 */
export async function startDiscussion(ctx: AppContext, spec: StartSpec): Promise<DiscussionSession | null> {
  const { userId, endpoint, parsed, agents, labels, prior, origin, meter } = spec;
  const key = spec.key ?? sessionKey(userId, parsed.sessionId);
  const { sessions } = ctx.discussions;
  // The agents' model providers get ready first: a one-time load (the offline model's tagger) stalls the process
  // here, at the start, rather than at the first turn while a room of watchers is being sent frames.
  await warmProviders(ctx, agents);
  // Throws DailyBudgetSpent when the user's day is spent: refused before anything is stored or said.
  const budget = await budgetFor(ctx.db, userId, {
    tokenBudget: parsed.input.config.token_budget,
    userDailyTokens: ctx.config.userDailyTokens,
  });
  // Checked after the last await, so two sockets of one user cannot both slip under the limit. With more than one
  // process the count is the database's (createDiscussionWithinLimit); PGlite is one process and counts here.
  const maxRunning = ctx.config.maxRunningDiscussionsPerUser;
  const clustered = ctx.db.kind === 'postgres';
  if (!clustered && maxRunning > 0 && ctx.discussions.runningFor(userId) >= maxRunning) return null;
  const discussionId = randomUUID();
  const built = buildPlan(parsed.input, agents, tuningOf(ctx), discussionId);
  // A continuation's agents have heard the earlier discussion: their first answers are not independent ones.
  const planned = budget ? { ...built, budget } : built;
  const plan = prior ? { ...planned, prior, independentFirst: false } : planned;
  const session = openSession(ctx, {
    userId,
    discussionId,
    endpointPath: ENDPOINTS[endpoint].path,
    plan,
    log: spec.log,
    ...(meter ? { meter } : {}),
  });
  try {
    const participants = agents.map((a, i) => ({
      id: a.id,
      name: a.name,
      role: a.role,
      model: a.model,
      model_label: labels[i] ?? null,
      color: a.color ?? null,
      avatar: a.avatar ?? null,
    }));
    const config = {
      ...parsed.input.config,
      token: undefined,
      panel: 'panel' in parsed.input ? parsed.input.panel : 'standard',
      participants,
      ...(origin && origin !== 'app' ? { origin } : {}),
    };
    const row = {
      id: discussionId,
      userId,
      sessionId: parsed.sessionId,
      endpoint: ENDPOINTS[endpoint].path,
      topic: parsed.topic,
      config,
      ownerId: ctx.instanceId,
      leaseMs: ctx.config.discussionLeaseMs,
      ...(prior ? { continuedFrom: { id: prior.discussionId, turn: prior.turn } } : {}),
    };
    if (clustered) {
      if (!(await createDiscussionWithinLimit(ctx.db, row, maxRunning))) {
        sessions.delete(key);
        return null;
      }
    } else await createDiscussion(ctx.db, row);
  } catch (err) {
    sessions.delete(key);
    throw err;
  }
  return session;
}
