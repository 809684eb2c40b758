import { z } from 'zod';
import { ARGUMENT_TYPES } from '../../src/schemas/constants';

// The contract between the discussion engine and any language model: what one agent's turn must
// answer. Real models are asked for it with a JSON Schema made from this zod schema
// (z.toJSONSchema(turnAnswer)); the built-in offline model composes it directly.

export const stance = z.enum(['support', 'oppose', 'neutral']);
export const turnAnswer = z.object({
  /** What the agent says, in natural language. */
  content: z.string().min(1),
  /** Its position on the current proposal. */
  stance,
  /** How sure it is of that position, 0–1. */
  confidence: z.number().min(0).max(1),
  argument_type: z.enum(ARGUMENT_TYPES),
  reasoning: z.array(z.string()).default([]),
  evidence: z.array(z.string()).default([]),
  /** Name of the agent this turn mainly answers or addresses, if any. */
  addressed_to: z.string().nullish(),
  /** FIPA performative that fits the turn (inform, request, propose, accept-proposal, reject-proposal, query-if, agree, refuse). */
  performative: z.string().default('inform'),
  /** Name of an agent to hand a sub-task to, with the task, when delegating. */
  delegate_to: z.string().nullish(),
  delegation_task: z.string().nullish(),
  /** When asked to pick who speaks next (natural mode). */
  next_speaker: z.string().nullish(),
  /** The answer the agent now holds, in a few words (cut to OPTION_LABEL_MAX characters). */
  position: z.string().nullish(),
  /** The id of that answer on the discussion's options list, or 'new' to propose it as a new option. */
  option_id: z.string().nullish(),
  /** When the agent changed its position: the argument or evidence it heard that changed it. */
  moved_by: z.string().nullish(),
});
export type TurnAnswer = z.infer<typeof turnAnswer>;

/** Structured facts about the turn. Real models read the prompt; the offline model reads these. */
export interface TurnContext {
  agent: { id: string; name: string; role: string; prompt: string; personality?: string | null };
  others: Array<{ id: string; name: string; role: string }>;
  topic: string;
  stage?: string;
  round?: number;
  turn: number;
  /** Earlier turns this agent has heard, oldest first. */
  history: Array<{
    speaker: string;
    content: string;
    stance?: string;
    confidence?: number;
    human?: boolean;
    option_id?: string;
  }>;
  /** The options on the table (id and words) and the one this agent holds, if any. */
  options?: Array<{ id: string; label: string }>;
  ownOption?: string | null;
  /** The option leading the table before this turn. */
  leader?: string | null;
  /** Everything said in the discussion so far, beyond `history`'s recent window (the offline model avoids repeating it). */
  earlier?: string[];
  /** Evidence (e.g. paper titles) the agent may cite. */
  evidence?: string[];
  /** Passages of the person's sources given to this turn, under the labels it may cite ('S1'). */
  passages?: Array<{ label: string; where: string; text: string }>;
  mode?: string;
  responseFormat?: string;
  citationStyle?: string;
  maxWords?: number;
  task?: 'turn' | 'pick_next_speaker' | 'summary' | FormatModelTask;
  /** A moderator's choices: agent names, 'ask', 'close' (task 'moderate'). */
  choices?: string[];
  /** The answers to rank, anonymous (task 'rank'). */
  answers?: Array<{ label: string; text: string }>;
  /** The side a debater argues. */
  side?: 'for' | 'against';
  /** Agent turns said in the whole discussion (task 'summary'): what the summary counts, beyond `history`'s window. */
  agentTurns?: number;
  /** The discussion's one consensus figure, 0–1 (engine/consensus.ts; task 'summary'). */
  consensus?: number;
}

/** The constrained answers a format asks for (server/engine/formats). */
export type FormatModelTask = 'moderate' | 'rank' | 'vote';
