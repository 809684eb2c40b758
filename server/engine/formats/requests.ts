import type { z } from 'zod';
import type {
  cancelFloorMessage,
  endDiscussionMessage,
  giveFloorMessage,
  judgeVoteMessage,
} from '../../../src/schemas/format';
import type { EngineEvent } from '../discussion.machine';
import type { DiscussionSession } from '../session';
import { definitionOf } from './registry';

// What a person sends to steer a format, checked against the running discussion before it reaches the machine:
// a plain sentence when it does not apply (no format, not an agent of this discussion, not a debate).

type Request =
  | z.infer<typeof giveFloorMessage>
  | z.infer<typeof cancelFloorMessage>
  | z.infer<typeof endDiscussionMessage>
  | z.infer<typeof judgeVoteMessage>;

export function formatRequestProblem(session: DiscussionSession, frame: Request): string | null {
  const f = session.plan.format;
  if (!session.isLive) return 'The discussion has ended.';
  if (!f) return 'This discussion has no format: the floor, votes and End discussion do not apply.';
  if (frame.type === 'give_floor' && !session.plan.agents.some((a) => a.id === frame.agent_id))
    return 'That agent is not in this discussion.';
  if (frame.type === 'judge_vote' && !definitionOf(f).personJudges(f))
    return 'Only the judge of a debate votes, and you are not its judge.';
  return null;
}

export function formatEvent(frame: Request): EngineEvent {
  switch (frame.type) {
    case 'give_floor':
      return { type: 'floor.give', agentId: frame.agent_id };
    case 'cancel_floor':
      return { type: 'floor.cancel' };
    case 'end_discussion':
      return { type: 'discussion.end' };
    case 'judge_vote':
      return { type: 'judge.vote', side: frame.side, confidence: frame.confidence, reason: frame.reason };
  }
}
