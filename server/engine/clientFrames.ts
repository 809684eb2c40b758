import type { WebSocket } from 'ws';
import { parseFrame } from '../../src/schemas/frames';
import { ENGINE_MESSAGES } from '../../src/schemas/messages';
import type { AppContext } from '../context';
import { incident } from '../http/incident';
import { discussionClientFrame } from './configure';
import { describeRate, TokenBucket, type Rate } from './flood';
import type { DiscussionSession } from './session';
import { formatEvent, formatRequestProblem } from './formats/requests';
import { recordHumanMessage } from './store';
import { answerApproval } from '../tools/approvals';
import { ownNamedSources } from '../sources/forDiscussion';
import { postMessage, refusal, remove, seat, type Sender } from '../rooms/control';

// What a client may send a running discussion after its configuration — human_message, stop, sources_add, the
// room's frames (rooms/control.ts says who may send which), and the
// panels' audio acknowledgments — and the flood limits on them. Every socket of a discussion goes through here: one this
// process accepted, one the cluster handed to this process, and frames a socket on another process forwarded.

/** Every client frame of one socket: CLIENT_FRAMES_PER_SECOND with bursts of CLIENT_FRAME_BURST. */
export const socketBucket = (ctx: AppContext) => new TokenBucket(clientFrameRate(ctx));
const clientFrameRate = (ctx: AppContext): Rate => ({
  perSecond: ctx.config.clientFramesPerSecond,
  burst: ctx.config.clientFrameBurst,
});
const humanRate = (ctx: AppContext): Rate => ({
  perSecond: ctx.config.humanMessagesPerSecond,
  burst: ctx.config.humanMessageBurst,
});

/** Human messages per user, across all of the user's sockets (one map per server, engine/registry.ts). */
const humanBucketsOf = (ctx: AppContext) => ctx.discussions.humanBuckets;

/**
 * A client frame after the configuration. Answers about the client's own frame (refused by flood control, sent
 * after the end, malformed) go to its socket only and are not stored: a flood of refused frames must not turn
 * into a flood of stored ones. A refused human message is never stored nor shown to the agents.
 */
export function handleClientFrame(
  ctx: AppContext,
  session: DiscussionSession,
  raw: string,
  bucket?: TokenBucket,
  /** A room member (rooms/): absent for the owner's own socket. */
  member?: Sender,
) {
  const from: Sender = member ?? { userId: session.userId, role: 'owner' };
  // The owner's own socket is the watcher's; a member's answers go to that member's sockets only.
  const tell = (message: string) =>
    member
      ? session.room.tellUser(member.userId, { type: 'error', message, fatal: false })
      : session.tell({ type: 'error', message, fatal: false });
  const limited = bucket !== undefined && !bucket.take();
  const res = parseFrame(discussionClientFrame, raw);
  // A flood never keeps the user from stopping: a well-formed stop passes an empty bucket.
  if (limited && !(res.kind === 'frame' && res.frame.type === 'stop'))
    return tell(ENGINE_MESSAGES.clientFrameLimit(describeRate(clientFrameRate(ctx))));
  if (res.kind === 'unknown') return tell(`Ignored a message of unknown type "${res.type}".`);
  if (res.kind === 'malformed')
    return tell(`Ignored a malformed "${res.type}" message: ${res.error.replace(/\s*\n\s*/g, '; ')}`);
  const frame = res.frame;
  const refused = refusal(session, from, frame.type);
  if (refused === 'quiet') return;
  if (refused) return tell(refused);
  switch (frame.type) {
    case 'stop':
      if (!session.isLive) return tell(ENGINE_MESSAGES.discussionEndedStop);
      return session.stop('stopped');
    case 'human_message': {
      if (!session.isLive) return tell(ENGINE_MESSAGES.discussionEnded);
      if (!session.plan.humanParticipation)
        return tell('Human participation is off for this discussion; the message was not added.');
      if (!humanBucketsOf(ctx).take(from.userId))
        return tell(ENGINE_MESSAGES.humanMessageLimit(describeRate(humanRate(ctx))));
      const max = ctx.config.maxHumanMessagesPerDiscussion;
      if (max > 0 && session.humanMessages >= max) return tell(ENGINE_MESSAGES.humanMessageCap(max));
      session.humanMessages++;
      void recordHumanMessage(ctx.db, session.discussionId, frame.text, frame.timestamp, from.userId).catch((err) =>
        tell(
          incident(
            session.log,
            err,
            'Your message reached the agents but could not be stored because of a server error',
            { discussion: session.discussionId },
          ),
        ),
      );
      session.deliver({ type: 'human.message', text: frame.text });
      return void postMessage(ctx, session, from.userId, frame.text);
    }
    case 'room_typing':
      return session.room.typing(from.userId, frame.typing);
    case 'room_seat':
      return void seat(ctx, session, frame, tell);
    case 'room_remove':
      return void remove(ctx, session, frame, tell);
    case 'give_floor':
    case 'cancel_floor':
    case 'end_discussion':
    case 'judge_vote': {
      const problem = formatRequestProblem(session, frame);
      if (problem) return tell(problem);
      // A participant's vote is shown under their display name, not the owner's.
      const judge = member && frame.type === 'judge_vote' ? session.room.members.get(member.userId) : undefined;
      return session.deliver({ ...formatEvent(frame), ...(judge ? { voterName: judge.person.display_name } : {}) });
    }
    case 'status':
      return session.deliver({ type: 'audio.ack', audioId: frame.audio_id });
    case 'audio_acknowledgment':
      return session.deliver({ type: 'audio.ack', audioId: frame.audio_id });
    case 'tool_approval':
      // Only a call of this discussion's owner that waits is answered; anything else is said, not stored.
      if (!answerApproval(ctx.tools, session.userId, frame.id, frame.approve))
        return tell(`No tool call waits for an answer under "${frame.id.slice(0, 80)}".`);
      return;
    case 'sources_add':
      if (!session.isLive) return tell(ENGINE_MESSAGES.discussionEnded);
      return void addOwnSources(ctx, session, frame.source_ids, tell);
  }
}

/** Only the person's own sources join the discussion; one that is not theirs refuses the whole frame in words. */
async function addOwnSources(
  ctx: AppContext,
  session: DiscussionSession,
  ids: string[],
  tell: (message: string) => void,
) {
  try {
    const sources = await ownNamedSources(ctx.db, session.userId, ids);
    if (!sources) return tell(ENGINE_MESSAGES.unknownLiveSources);
    session.deliver({ type: 'sources.add', sources });
  } catch (err) {
    tell(
      incident(session.log, err, 'The sources were not added because of a server error', {
        discussion: session.discussionId,
      }),
    );
  }
}

/** A socket becomes one of the session's: its frames are handled, its close detaches it, and it hears from `resumeFrom` on. */
export function attachSocket(ctx: AppContext, ws: WebSocket, session: DiscussionSession, resumeFrom?: number) {
  const bucket = socketBucket(ctx);
  ws.on('message', (d) => handleClientFrame(ctx, session, String(d), bucket));
  ws.on('close', (code) => session.detach(ws, code));
  session.attach(ws, resumeFrom);
}
