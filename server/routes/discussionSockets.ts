import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { WebSocket } from 'ws';
import {
  CLOSE_INTERNAL_ERROR,
  CLOSE_NORMAL,
  CLOSE_POLICY_VIOLATION,
  type EndpointKey,
} from '../../src/schemas/constants';
import { ENGINE_MESSAGES } from '../../src/schemas/messages';
import { socketUser } from '../auth/guard';
import type { AppContext } from '../context';
import { handleClientFrame, socketBucket } from '../engine/clientFrames';
import { parseConfiguration } from '../engine/configure';
import { enter, refuse, refuseAtLimit } from '../engine/discussions';
import { tuningOf } from '../engine/hooks';
import type { DiscussionSession } from '../engine/session';
import { incident } from '../http/incident';
import { socketRoute } from '../http/security';
import { isRoomJoin, joinRoom } from '../rooms/join';

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
// - A room member (rooms/, README 'Sharing and rooms') sends `room_join` first instead of a configuration and is
//   served by rooms/join.ts with the role of their invite.

const SOCKETS: Array<[string, EndpointKey]> = [
  ['/ws/discuss', 'basic'],
  ['/discussion/ws/discuss', 'basic'],
  ['/ws/enhanced', 'enhanced'],
  ['/discussion/ws/enhanced', 'enhanced'],
  ['/ws/multi_round_reasoning', 'multi_round'],
  ['/ws/hybrid', 'hybrid'],
  ['/hybrid-discussion/ws', 'hybrid'],
];

export async function discussionSocketRoutes(app: FastifyInstance) {
  // The engine itself (recovery, cluster, close) is the engine plugin's (engine/plugin.ts): these are its sockets.
  const { ctx } = app;
  for (const [path, endpoint] of SOCKETS) {
    socketRoute(app, path, (ws: WebSocket, req: FastifyRequest) => {
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

async function serveDiscussion(
  ctx: AppContext,
  app: FastifyInstance,
  ws: WebSocket,
  req: FastifyRequest,
  endpoint: EndpointKey,
) {
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
  /** A room member's socket (rooms/join.ts): its later frames go here. */
  let member: ((raw: string) => void) | null = null;
  let configuring = false;
  const bucket = socketBucket(ctx);
  const configTimer = setTimeout(() => {
    if (!session)
      refuse(
        ws,
        ENGINE_MESSAGES.badConfig(
          `no configuration received within ${Math.round(tuningOf(ctx).configTimeoutMs / 1000)} s`,
        ),
      );
  }, tuningOf(ctx).configTimeoutMs);

  const onMessage = async (raw: string) => {
    if (session) return handleClientFrame(ctx, session, raw, bucket);
    if (member) return member(raw);
    if (configuring) return; // a second message before the first was handled: ignored, the panel sends one
    configuring = true;
    clearTimeout(configTimer);
    try {
      if (isRoomJoin(raw)) member = await joinRoom(ctx, ws, userId, endpoint, raw);
      else session = await configure(ctx, app, ws, userId, endpoint, raw);
    } catch (err) {
      refuse(
        ws,
        incident(app.log, err, 'The discussion could not be started because of a server error'),
        CLOSE_INTERNAL_ERROR,
      );
    }
  };
  ws.on('message', (d) => void onMessage(String(d)));
  ws.on('close', (code) => {
    clearTimeout(configTimer);
    session?.detach(ws, code);
  });
  for (const raw of early) void onMessage(raw);
}

/** The configuration parsed and within limits, then the engine's one entrance (engine/discussions.ts). */
async function configure(
  ctx: AppContext,
  app: FastifyInstance,
  ws: WebSocket,
  userId: string,
  endpoint: EndpointKey,
  raw: string,
): Promise<DiscussionSession | null> {
  const parsed = parseConfiguration(endpoint, raw);
  if (!parsed.ok) return (refuse(ws, parsed.why), null);
  if (parsed.agentIds.length < 2)
    return (refuse(ws, ENGINE_MESSAGES.badConfig('at least two different agents are needed')), null);
  const maxAgents = ctx.config.maxAgentsPerDiscussion;
  if (maxAgents > 0 && parsed.agentIds.length > maxAgents) {
    const message = ENGINE_MESSAGES.badConfig(
      `at most ${maxAgents} agents may take part in one discussion (MAX_AGENTS_PER_DISCUSSION); ${parsed.agentIds.length} were named`,
    );
    return (
      refuseAtLimit(
        ws,
        message,
        `At most ${maxAgents} agents may take part in one discussion; ${parsed.agentIds.length} were chosen.`,
      ),
      null
    );
  }
  return enter({ ctx, log: app.log, ws, userId, endpoint, parsed });
}
