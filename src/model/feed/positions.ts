import type { Vote } from '../../schemas/positions';
import { kvAppend, kvIndexOf } from '../keyedVec';
import type { PositionStep } from './positionsState';
import { feedWith, type F, type Feed } from './types';

export { emptyPositions, type PositionStep, type PositionsState } from './positionsState';

// Positions as the server sent them: the options list, each turn's option and confidence, the consensus figure
// after each turn and the first vote. Nothing here is computed from the words: the feed only keeps the records.

type OutcomeCarrier = {
  first_vote?: Vote | null;
  final_vote?: Vote | null;
  outcome?: string;
  changes?: { argument: number; majority: number };
};

/** The closing frames' outcome (consensus_reached, discussion_summary.summary). */
export function withOutcome(feed: Feed, o: OutcomeCarrier): Feed {
  if (!o.final_vote && !o.outcome && !o.first_vote) return feed;
  const p = feed.positions;
  return feedWith(feed, {
    positions: {
      ...p,
      firstVote: o.first_vote ?? p.firstVote,
      finalVote: o.final_vote ?? p.finalVote,
      outcome: o.outcome ?? p.outcome,
      changes: o.changes ?? p.changes,
    },
  });
}

export function onPositionsFrame(feed: Feed, frame: F<'positions'>): Feed {
  const p = feed.positions;
  return feedWith(feed, { positions: { ...p, options: frame.options, firstVote: frame.first_vote ?? p.firstVote } });
}

type TurnFrame = F<'agent_message'> | F<'text'> | F<'argument'>;

/** A turn's final frame: its option, once. */
export function withTurnPosition(feed: Feed, frame: TurnFrame): Feed {
  if (!frame.option_id) return feed;
  const id =
    frame.type === 'argument'
      ? frame.argument.id
      : frame.type === 'text'
        ? (frame.id ?? `${frame.from_id}-${frame.turn}`)
        : frame.id;
  const p = feed.positions;
  if (kvIndexOf(p.steps, id) >= 0) return feed;
  const step: PositionStep = {
    id,
    agentId:
      frame.type === 'argument' ? frame.argument.agent_id : frame.type === 'text' ? frame.from_id : frame.agent_id,
    agentName:
      (frame.type === 'argument' ? frame.argument.agent_name : frame.type === 'text' ? frame.from : frame.agent_name) ??
      '',
    optionId: frame.option_id,
    confidence:
      frame.type === 'argument'
        ? frame.argument.confidence
        : frame.type === 'agent_message'
          ? (frame.confidence ?? 0)
          : 0,
    changed: frame.changed ?? null,
    score: frame.consensus_score ?? null,
    leaderId: frame.leader_id ?? null,
    halved: frame.consensus_halved ?? 0,
  };
  const options =
    p.options.some((o) => o.id === step.optionId) || !frame.position
      ? p.options
      : [...p.options, { id: step.optionId, label: frame.position }];
  return feedWith(feed, {
    positions: {
      ...p,
      options,
      steps: kvAppend(p.steps, id, step),
      byAgent: { ...p.byAgent, [step.agentId]: step },
      score: step.score ?? p.score,
      leaderId: step.leaderId ?? p.leaderId,
      halved: step.score === null ? p.halved : step.halved,
      changes: step.changed ? { ...p.changes, [step.changed]: p.changes[step.changed] + 1 } : p.changes,
    },
  });
}
