import type { PositionChange } from '../../../src/schemas/positions';
import { measureConsensus, type Position } from '../consensus';
import type { EngineFrame } from '../frames';
import type { AgentRef, Plan } from '../plan';
import { consensusOf, type DiscussionRecord } from '../record';
import type { TurnAnswer } from '../turnAnswer';
import { classifyChange, countChange, noChanges } from './changes';
import { heardAnotherAgent, heardForTurn } from './hearing';
import { chooseOption, emptyOptions } from './options';
import { voteOf } from './votes';

// One turn's position: the option it holds, whether it was informed by another agent, how it changed, and what
// the record and the frames keep of it (docs/protocol.md#positions). Computed once here; panels only show it.

export interface TurnPosition {
  /** The record's position fields after the turn. */
  record: Pick<DiscussionRecord, 'positions' | 'options' | 'firstVote' | 'changes'>;
  /** Fields for the turn's final frame. */
  fields: {
    position?: string;
    option_id?: string;
    changed: PositionChange | null;
    consensus_score: number;
    leader_id: string | null;
  };
  /** A `positions` frame when the options list changed or the first vote was just taken. */
  frames: EngineFrame[];
  optionId: string | null;
}

export function positionTurn(
  plan: Plan,
  record: DiscussionRecord,
  agent: AgentRef,
  answer: TurnAnswer,
  weight: number,
  content: string,
): TurnPosition {
  const before = record.positions[agent.id];
  const heard = heardForTurn(plan, record, agent.id);
  const listBefore = record.options ?? emptyOptions();
  const held = new Set(
    Object.values(record.positions)
      .map((p) => p.optionId)
      .filter((x): x is string => !!x),
  );
  const leaderBefore = consensusOf(plan, record).leader;
  const { list, optionId } = chooseOption(
    listBefore,
    { optionId: answer.option_id, position: answer.position },
    before?.optionId ?? null,
    content,
    held,
  );
  const changed = classifyChange(before?.optionId, optionId, leaderBefore, {
    movedBy: answer.moved_by,
    evidence: answer.evidence,
  });
  const position: Position = {
    agentId: agent.id,
    agentName: agent.name,
    stance: answer.stance,
    confidence: weight,
    content,
    optionId,
    informed: Boolean(before?.informed) || heardAnotherAgent(heard, agent.id),
    ...(weight < answer.confidence ? { unevidenced: true } : {}),
  };
  const positions = { ...record.positions, [agent.id]: position };
  const m = measureConsensus(
    Object.values(positions),
    plan.agents.length,
    (id) => list.options.find((o) => o.id === id)?.label,
  );
  const takeFirst = !record.firstVote && m.complete;
  const firstVote = takeFirst ? voteOf(m, list.options, plan.agents.length) : (record.firstVote ?? null);
  const label = list.options.find((o) => o.id === optionId)?.label;
  const frames: EngineFrame[] =
    list !== listBefore || takeFirst ? [{ type: 'positions', options: list.options, first_vote: firstVote }] : [];
  return {
    record: { positions, options: list, firstVote, changes: countChange(record.changes ?? noChanges(), changed) },
    fields: {
      ...(label ? { position: label, option_id: optionId! } : {}),
      changed,
      consensus_score: m.score,
      leader_id: m.leader,
      ...(m.halved ? { consensus_halved: m.halved } : {}),
    },
    frames,
    optionId,
  };
}
