import type { Plan } from '../plan';
import { heardBy, type DiscussionRecord, type SpokenTurn } from '../record';

// 'Independent first answers': until an agent has taken a position, its prompt holds the question (and what people
// at the table wrote, which is part of the question) but no other agent's words, so the first vote is what each
// agent thought before hearing the others.

export const answersIndependently = (plan: Plan, record: DiscussionRecord, agentId: string) =>
  plan.independentFirst && !record.positions[agentId];

/** What `agentId` hears for its turn: only people on an independent first answer, else the plan's hearing rule. */
export function heardForTurn(plan: Plan, record: DiscussionRecord, agentId: string, limit?: number): SpokenTurn[] {
  const heard = heardBy(plan, record, agentId, limit);
  return answersIndependently(plan, record, agentId) ? heard.filter((t) => t.human) : heard;
}

/** Whether the turn heard at least one other agent (not only itself or people). */
export const heardAnotherAgent = (heard: readonly SpokenTurn[], agentId: string) =>
  heard.some((t) => !t.human && t.speakerId !== null && t.speakerId !== agentId);
