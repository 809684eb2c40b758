import type { TurnRequest } from '../prompt';
import type { TurnAnswer } from '../turnAnswer';

// A format's constrained answers are read by the format from the model's raw reply (answers.ts); the runtime only
// needs to know not to read them as a turn, and something of a turn's shape to carry them.

export const isChoiceRequest = (req: TurnRequest) => ['moderate', 'rank', 'vote'].includes(req.context?.task ?? '');

export const choiceStandIn = (raw: string): TurnAnswer => ({
  content: raw.slice(0, 2000) || '(empty)',
  stance: 'neutral',
  confidence: 0.5,
  argument_type: 'question',
  reasoning: [],
  evidence: [],
  addressed_to: null,
  performative: 'inform',
  delegate_to: null,
  delegation_task: null,
  next_speaker: null,
});
