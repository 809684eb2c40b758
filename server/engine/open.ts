import type { AppContext } from '../context';
import type { DiscussionMachine } from './discussion.machine';
import type { Plan } from './plan';
import { liveDiscussionMachine, researchOf } from './runtime';
import { DiscussionSession, type SessionLog } from './session';
import type { UsageMeter } from './usage';

// The one place a discussion session is made and put in the server's registry (ctx.discussions): for a new
// discussion (engine/discussions.ts) and for one this process takes over from its stored snapshot
// (engine/cluster.ts). It leaves the registry when it is gone.

export interface OpenSpec {
  userId: string;
  discussionId: string;
  /** The endpoint's path, as stored with the discussion. */
  endpointPath: string;
  plan: Plan;
  log: SessionLog;
  /** A taken-over discussion: the machine its snapshot was checked against, the snapshot and its stored frames. */
  resume?: { machine: DiscussionMachine; snapshot: unknown; frames: string[] };
  /** Counts the discussion's token usage (a caller that answers with it: /v1, /mcp). */
  meter?: UsageMeter;
}

export function openSession(ctx: AppContext, spec: OpenSpec): DiscussionSession {
  const { userId, discussionId, endpointPath, plan, log, resume, meter } = spec;
  const machine = resume?.machine ?? liveDiscussionMachine(ctx, userId, log, meter);
  const session = new DiscussionSession(ctx, userId, discussionId, endpointPath, plan, machine, log, {
    speechAvailable: ctx.providers.speech.available(),
    researchAvailable: researchOf(ctx) !== null,
    durable: ctx.discussions.cluster !== null,
    ...(resume ? { restore: { snapshot: resume.snapshot, frames: resume.frames } } : {}),
  });
  const { sessions } = ctx.discussions;
  sessions.set(session.key, session);
  session.whenGone(() => sessions.get(session.key) === session && sessions.delete(session.key));
  return session;
}
