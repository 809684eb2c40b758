import { z } from 'zod';
import type { ChatMessage, ChatRequest } from '../providers/types';
import type { AgentRef, HybridMode, Plan } from './plan';
import { heardForTurn } from './positions/hearing';
import { optionsText, POSITION_INSTRUCTION, withOptionSchema } from './positions/prompt';
import { consensusOf, turnsSaid, type DiscussionRecord } from './record';
import { turnAnswer, type TurnContext } from './turnAnswer';
import type { Retrieval } from '../sources/turnPassages';

// The words a model reads for one turn (messages) and the same facts as data (context, for the offline model).

/** The JSON Schema every turn is asked to follow; made once. */
export const TURN_ANSWER_JSON_SCHEMA = z.toJSONSchema(turnAnswer, { io: 'input' }) as Record<string, unknown>;

/**
 * A model call before the runtime adds its abort signal, and what it may read of the person's sources (the
 * runtime asks the index for it and puts the passages in the messages: sources/turnPassages.ts).
 */
export type TurnRequest = Omit<ChatRequest, 'signal' | 'onToken'> & { retrieval?: Retrieval };

const STAGE_GUIDE: Record<string, string> = {
  brainstorming: 'Brainstorming: put forward a concrete proposal or idea.',
  analysis: 'Analysis: examine the proposals on the table, their assumptions and consequences.',
  critique: 'Critique: find weaknesses, risks and counter-arguments; ask pointed questions.',
  synthesis: 'Synthesis: combine the strongest points into one improved proposal.',
  consensus: 'Consensus: state clearly whether you support the current proposal, and why.',
  implementation: 'Implementation: describe the concrete steps to carry out the agreed proposal.',
};

const MODE_GUIDE: Record<HybridMode, string> = {
  natural: 'Speak in natural language.',
  structured: 'Communicate formally: pick the FIPA performative that fits and keep the content precise and structured.',
  hybrid: 'Speak naturally, and also pick the FIPA performative that fits your message.',
  adaptive: 'Speak naturally, and also pick the FIPA performative that fits your message.',
};

export interface TurnSlot {
  turn: number;
  round: number;
  stage: string | null;
  /** A task another agent handed to this one. */
  delegation: { from: string; task: string } | null;
  /** The hybrid mode in force for this turn (adaptive resolves to natural or structured). */
  mode: HybridMode | null;
}

function systemPrompt(plan: Plan, agent: AgentRef, slot: TurnSlot): string {
  const others = plan.agents
    .filter((a) => a.id !== agent.id)
    .map((a) => `${a.name} (${a.role})`)
    .join(', ');
  const lines = [
    `You are ${agent.name}, ${agent.role}.`,
    agent.prompt,
    agent.personality ? `Your temperament: ${agent.personality}.` : '',
    `You are in a discussion with ${others}. Keep a ${plan.style} tone and ${plan.reasoningMode} reasoning.`,
    slot.mode ? MODE_GUIDE[slot.mode] : '',
    `Say at most ${plan.maxWords} words${plan.responseFormat === 'bullet' ? ', as short bullet points' : plan.responseFormat === 'structured' ? ', in short labelled sections' : ''}.`,
    `Give your reasoning in at most ${plan.reasoningDepth} short steps.`,
    plan.requireEvidence
      ? `Support your claims with evidence (cite it ${plan.citationStyle === 'footnote' ? 'as footnotes' : plan.citationStyle === 'inline' ? 'inline' : 'academically'}).`
      : '',
    plan.delegation
      ? 'You may hand a well-defined sub-task to another participant with delegate_to and delegation_task.'
      : '',
    plan.naturalPick ? 'Name who should speak next in next_speaker.' : '',
    'Answer with one JSON object that follows the given schema: content, stance (support, oppose or neutral on the current proposal), confidence (0 to 1), argument_type, reasoning, evidence, addressed_to, performative (inform, request, propose, accept-proposal, reject-proposal, query-if, agree, refuse).',
    POSITION_INSTRUCTION,
  ];
  return lines.filter(Boolean).join('\n');
}

/** A continuation's earlier discussion as prompt lines (a count stands for the turns too old to quote). */
function priorLines(plan: Plan): string[] {
  const p = plan.prior;
  if (!p) return [];
  const older = p.omitted > 0 ? [`(${p.omitted} earlier turns of "${p.topic}" are not repeated here.)`] : [];
  return [...older, ...p.turns.map((t) => `${t.human ? 'Human participant' : t.speaker}: ${t.content}`)];
}

function userPrompt(plan: Plan, record: DiscussionRecord, agent: AgentRef, slot: TurnSlot): string {
  const heard = heardForTurn(plan, record, agent.id);
  const parts = [`Topic: ${plan.topic}`];
  if (slot.stage) parts.push(`Stage (round ${slot.round} of ${plan.rounds}): ${STAGE_GUIDE[slot.stage] ?? slot.stage}`);
  else if (plan.announceRounds) parts.push(`Round ${slot.round} of ${plan.rounds}.`);
  if (record.evidence.length) parts.push(`Evidence you may cite:\n${record.evidence.map((e) => `- ${e}`).join('\n')}`);
  const independent = plan.independentFirst && !record.positions[agent.id];
  if (independent)
    parts.push('Give your own first answer: you have not heard the other agents yet, and they have not heard you.');
  if (independent && heard.length)
    parts.push(`People at the table wrote:\n${heard.map((t) => `Human participant: ${t.content}`).join('\n')}`);
  else if (!independent) {
    const said = [
      ...priorLines(plan),
      ...heard.map((t) => `${t.human ? 'Human participant' : t.speaker}: ${t.content}`),
    ];
    parts.push(said.length ? `The discussion so far:\n${said.join('\n')}` : 'You speak first.');
  }
  const options = independent ? '' : optionsText(record, record.positions[agent.id]?.optionId);
  if (options) parts.push(options);
  if (slot.delegation) parts.push(`${slot.delegation.from} handed you this task: ${slot.delegation.task}`);
  parts.push(`Now give your turn as ${agent.name}.`);
  return parts.join('\n\n');
}

export function turnContext(plan: Plan, record: DiscussionRecord, agent: AgentRef, slot: TurnSlot): TurnContext {
  const independent = plan.independentFirst && !record.positions[agent.id];
  const history: TurnContext['history'] = heardForTurn(plan, record, agent.id).map((t) => ({
    speaker: t.human ? 'Human' : t.speaker,
    content: t.content,
    stance: t.stance,
    confidence: t.confidence,
    human: t.human,
    ...(t.optionId ? { option_id: t.optionId } : {}),
  }));
  const heardCount = history.length;
  // A continuation's earlier discussion comes first: the agents take it as what was said before.
  if (plan.prior && !independent)
    history.unshift(
      ...plan.prior.turns.map((t) => ({
        speaker: t.human ? 'Human' : t.speaker,
        content: t.content,
        stance: undefined,
        confidence: undefined,
        human: t.human,
      })),
    );
  if (slot.delegation)
    history.push({
      speaker: slot.delegation.from,
      content: `Task for ${agent.name}: ${slot.delegation.task}`,
      stance: undefined,
      confidence: undefined,
      human: undefined,
    });
  return {
    agent: { id: agent.id, name: agent.name, role: agent.role, prompt: agent.prompt, personality: agent.personality },
    others: plan.agents.filter((a) => a.id !== agent.id).map((a) => ({ id: a.id, name: a.name, role: a.role })),
    topic: plan.topic,
    stage: slot.stage ?? undefined,
    round: plan.announceRounds ? slot.round : undefined,
    turn: slot.turn,
    history,
    ...(independent
      ? {}
      : {
          options: record.options?.options ?? [],
          ownOption: record.positions[agent.id]?.optionId ?? null,
          leader: leaderOf(plan, record),
        }),
    ...(!independent && turnsSaid(record) > heardCount
      ? {
          earlier: [
            ...(record.earlier ?? []),
            ...record.turns.slice(0, Math.max(0, record.turns.length - heardCount)).map((t) => t.content),
          ],
        }
      : {}),
    evidence: record.evidence.length ? record.evidence : undefined,
    mode: slot.mode ?? plan.conversationMode ?? plan.endpoint,
    responseFormat: plan.responseFormat,
    citationStyle: plan.citationStyle,
    maxWords: plan.maxWords,
    task: 'turn',
  };
}

export function turnRequest(plan: Plan, record: DiscussionRecord, agent: AgentRef, slot: TurnSlot): TurnRequest {
  const messages: ChatMessage[] = [
    { role: 'system', content: systemPrompt(plan, agent, slot) },
    { role: 'user', content: userPrompt(plan, record, agent, slot) },
  ];
  return {
    model: agent.model,
    messages,
    maxTokens: plan.model.maxTokens,
    temperature: plan.model.temperature,
    jsonSchema: withOptionSchema(
      TURN_ANSWER_JSON_SCHEMA,
      plan.independentFirst && !record.positions[agent.id] ? [] : (record.options?.options ?? []).map((o) => o.id),
    ),
    context: turnContext(plan, record, agent, slot),
    ...retrievalFor(plan, record, agent),
  };
}

/** The sources this agent reads (the discussion's and its own), asked with the topic, its role and the last turns. */
function retrievalFor(plan: Plan, record: DiscussionRecord, agent: AgentRef): { retrieval?: Retrieval } {
  const sourceIds = [...new Set([...(plan.sourceIds ?? []), ...(agent.sourceIds ?? [])])];
  if (!sourceIds.length) return {};
  const recent = heardForTurn(plan, record, agent.id)
    .slice(-3)
    .map((t) => t.content);
  return { retrieval: { sourceIds, texts: [plan.topic, agent.role, ...recent] } };
}

/** The closing summary, written by the first participant's model in plain prose. */
export function summaryRequest(
  plan: Plan,
  record: DiscussionRecord,
  consensusScore: number,
  outcome = '',
): TurnRequest {
  const agent = plan.agents[0];
  const transcript = record.turns
    .slice(-30)
    .map((t) => `${t.human ? 'Human participant' : t.speaker}: ${t.content}`)
    .join('\n');
  return {
    model: agent.model,
    messages: [
      {
        role: 'system',
        content:
          'You write short, neutral summaries of discussions: the main positions, where they agree, what remains open.',
      },
      {
        role: 'user',
        content: `Topic: ${plan.topic}\nConsensus score: ${consensusScore}${outcome ? `\n${outcome}` : ''}\n\n${transcript}\n\nSummarise this discussion in at most 120 words.`,
      },
    ],
    maxTokens: 300,
    temperature: 0.3,
    context: {
      agent: { id: agent.id, name: agent.name, role: agent.role, prompt: agent.prompt, personality: agent.personality },
      others: plan.agents.slice(1).map((a) => ({ id: a.id, name: a.name, role: a.role })),
      topic: plan.topic,
      turn: turnsSaid(record),
      history: record.turns.slice(-30).map((t) => ({
        speaker: t.human ? 'Human' : t.speaker,
        content: t.content,
        stance: t.stance,
        confidence: t.confidence,
        human: t.human,
      })),
      task: 'summary',
      // Agents' turns only, over the whole run: a person's message is not a turn, and history is a window.
      agentTurns: record.figures.messages,
      maxWords: 120,
      consensus: consensusScore,
    },
  };
}

const leaderOf = (plan: Plan, record: DiscussionRecord) => consensusOf(plan, record).leader;
