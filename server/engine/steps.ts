import type { ResearchResult } from '../../src/schemas/discussion';
import { ENGINE_MESSAGES } from '../../src/schemas/messages';
import { limitWords } from './answer';
import { hasConverged } from './consensus';
import type { EngineFrame } from './frames';
import type { AgentRef, HybridMode, Plan } from './plan';
import { turnRequest, type TurnRequest } from './prompt';
import {
  averageResponseMs, averageTtsMs, consensusOf, emptyRecord, solutionOf, votesOf, type ArgumentNode, type DiscussionRecord,
} from './record';
import { findAgent, nextSpeaker, type SpeakerReason } from './speakers';
import type { TurnAnswer } from './turnAnswer';

// The engine's pure steps: given the machine's context (and an actor's output), the next context and the frames
// to send. The machine (discussion.machine.ts) decides when each step runs; these decide what it says.

export interface ThinkOutput {
  answer: TurnAnswer;
  /** How long the model took. */
  modelMs: number;
  /** performance.now() when the model call resolved (for the answer-to-wire latency figure). */
  answeredAt: number;
}
export interface SpeakInput {
  text: string;
  agentId: string;
  agentName: string;
  audioId: string;
  speed: number;
  format: string;
}
export interface SpeakOutput {
  audioUrl: string;
  ttsMs: number;
}
export interface ResearchInput {
  topic: string;
  sources: string[];
  maxResults: number;
  domain: string;
}
export interface ResearchOutput {
  query: string;
  results: ResearchResult[];
  /** Set when no research service could be reached. */
  unavailable?: string;
}

export interface EngineInput {
  plan: Plan;
  /** Whether a speech engine exists; speech asked for without one is announced once and switched off. */
  speechAvailable: boolean;
  /** Whether a research provider exists. */
  researchAvailable: boolean;
}

export interface EngineContext {
  plan: Plan;
  speechOn: boolean;
  speechMissing: boolean;
  researchAvailable: boolean;
  /** 1-based once the first round starts. */
  round: number;
  stageIndex: number;
  turnInStage: number;
  /** Agent turns begun so far; the current turn's number. */
  turn: number;
  speakerId: string | null;
  lastSpeakerId: string | null;
  prevSpeakerId: string | null;
  delegation: { toId: string; from: string; task: string } | null;
  /** The delegation the current speaker is answering. */
  answering: { from: string; task: string } | null;
  /** Why the current speaker has the floor (sent as `turn_reason` on its message). */
  speakerReason: SpeakerReason;
  lastAddressedTo: string | null;
  lastPicked: string | null;
  record: DiscussionRecord;
  failures: number;
  audioSeq: number;
  pendingAudioId: string | null;
  lastMessageId: string | null;
  /** The hybrid mode in force (adaptive moves between natural and structured). */
  mode: HybridMode | null;
  converged: boolean;
}

export type Step = { patch: Partial<EngineContext>; frames: Array<{ frame: EngineFrame; answeredAt?: number }> };
const say = (...frames: EngineFrame[]) => frames.map((frame) => ({ frame }));

export function initialContext(input: EngineInput): EngineContext {
  const { plan } = input;
  return {
    plan,
    speechOn: plan.speech.enabled && input.speechAvailable,
    speechMissing: plan.speech.enabled && !input.speechAvailable,
    researchAvailable: input.researchAvailable,
    round: 0,
    stageIndex: 0,
    turnInStage: 0,
    turn: 0,
    speakerId: null,
    lastSpeakerId: null,
    prevSpeakerId: null,
    delegation: null,
    answering: null,
    speakerReason: 'turn',
    lastAddressedTo: null,
    lastPicked: null,
    record: emptyRecord(),
    failures: 0,
    audioSeq: 0,
    pendingAudioId: null,
    lastMessageId: null,
    mode: plan.hybridMode === 'adaptive' ? 'natural' : plan.hybridMode,
    converged: false,
  };
}

export const speakerOf = (c: EngineContext): AgentRef => c.plan.agents.find((a) => a.id === c.speakerId) ?? c.plan.agents[0];
export const stageOf = (c: EngineContext) => c.plan.stages[c.stageIndex] ?? null;
const participants = (p: Plan) => p.agents.map((a) => ({ id: a.id, name: a.name, role: a.role }));

export function opening(c: EngineContext): EngineFrame[] {
  const { plan } = c;
  const frames: EngineFrame[] = [];
  if (plan.endpoint === 'basic' || plan.endpoint === 'enhanced') {
    frames.push({ type: 'discussion_started', session_id: plan.sessionId, endpoint: plan.endpoint, participants: participants(plan), topic: plan.topic });
  } else {
    frames.push({
      type: 'discussion_initialized', session_id: plan.sessionId, mode: plan.hybridMode ?? plan.endpoint, participants: participants(plan),
      topic: plan.topic, max_rounds: plan.rounds,
    });
  }
  if (c.speechMissing) frames.push({ type: 'tts_error', agent_name: 'System', error: ENGINE_MESSAGES.noSpeechEngine });
  if (plan.hybridMode === 'adaptive') frames.push({ type: 'system', content: 'Adaptive mode: starting in natural language; switching to structured ACL if the agents disagree.' });
  return frames;
}

export const researchInput = (c: EngineContext): ResearchInput => ({
  topic: c.plan.topic,
  sources: c.plan.research?.sources ?? [],
  maxResults: c.plan.research?.maxResults ?? 5,
  domain: c.plan.research?.domain ?? 'general',
});

export function shareResearch(c: EngineContext, out: ResearchOutput): Step {
  const papers = out.results.flatMap((r) => r.articles ?? r.results ?? []);
  const evidence = papers.slice(0, 6).map((p) => (p.year ? `${p.title} (${p.year})` : p.title));
  if (out.unavailable) {
    return { patch: {}, frames: say({ type: 'research_results', query: out.query, results: [], unavailable: `${ENGINE_MESSAGES.researchUnavailable} (${out.unavailable})` }) };
  }
  if (!out.results.length) return { patch: {}, frames: say({ type: 'research_results', query: out.query, results: [] }) };
  return {
    patch: { record: { ...c.record, evidence } },
    frames: say(...out.results.map((result): EngineFrame => ({ type: 'research_result', result: { ...result, query: result.query ?? out.query } }))),
  };
}

export const researchFailed = (c: EngineContext, why: string): Step => ({
  patch: {},
  frames: say({ type: 'research_results', query: c.plan.topic, results: [], unavailable: `${ENGINE_MESSAGES.researchUnavailable} (${why})` }),
});

export function beginRound(c: EngineContext): Step {
  const round = c.round + 1;
  const frames: EngineFrame[] = c.plan.announceRounds
    ? [{ type: 'round_start', round, max_rounds: c.plan.rounds, stage: c.plan.stages[0] ?? undefined }]
    : [];
  return { patch: { round, stageIndex: 0, turnInStage: 0 }, frames: say(...frames) };
}

export function beginStage(c: EngineContext): Step {
  const stage = stageOf(c);
  return {
    patch: { turnInStage: 0 },
    frames: say(...(stage ? [{ type: 'reasoning_stage', stage, round: c.round, description: `Round ${c.round}: ${stage}` } as EngineFrame] : [])),
  };
}

export function chooseSpeaker(c: EngineContext): Step {
  const { agent, reason } = nextSpeaker(c.plan, c.record, {
    turnInStage: c.turnInStage,
    lastSpeakerId: c.lastSpeakerId,
    prevSpeakerId: c.prevSpeakerId,
    delegateId: c.delegation?.toId ?? null,
    lastAddressedTo: c.lastAddressedTo,
    lastPicked: c.lastPicked,
  });
  const answering = reason === 'delegation' && c.delegation ? { from: c.delegation.from, task: c.delegation.task } : null;
  return {
    patch: { speakerId: agent.id, turn: c.turn + 1, delegation: null, answering, speakerReason: reason },
    frames: say({ type: 'agent_status', agent_id: agent.id, agent_name: agent.name, status: 'thinking' }),
  };
}

export const thinkInput = (c: EngineContext): { request: TurnRequest; stage: string | null } => ({
  request: turnRequest(c.plan, c.record, speakerOf(c), { turn: c.turn, round: c.round, stage: stageOf(c), delegation: c.answering, mode: c.mode }),
  stage: stageOf(c),
});

const FIPA = new Set(['inform', 'request', 'propose', 'accept-proposal', 'reject-proposal', 'query-if', 'query-ref', 'agree', 'refuse', 'confirm', 'disconfirm', 'cfp', 'inform-if', 'not-understood']);
const REQUESTING = new Set(['request', 'query-if', 'query-ref', 'cfp']);

function formal(performative: string, sender: string, receiver: string, content: string, a: TurnAnswer, confidence: number) {
  const quoted = content.replace(/\s+/g, ' ').replace(/"/g, "'");
  return `(${performative}\n  :sender ${sender}\n  :receiver ${receiver}\n  :content "${quoted}"\n  :stance ${a.stance} :confidence ${confidence.toFixed(2)})`;
}

/** Everything one agent's answer changes and says. */
export function applyTurn(c: EngineContext, out: ThinkOutput): Step {
  const { plan } = c;
  const agent = speakerOf(c);
  const a = out.answer;
  const stage = stageOf(c);
  const content = limitWords(a.content.trim(), plan.maxWords);
  // What the agent said of itself is shown as said; only its weight in the consensus is halved when evidence
  // was required and it gave none (see consensus.ts).
  const confidence = a.confidence;
  const weight = plan.requireEvidence && !a.evidence.length ? a.confidence * 0.5 : a.confidence;
  const addressee = findAgent(plan.agents, a.addressed_to);
  const receiver = addressee && addressee.id !== agent.id ? addressee : undefined;
  const performative = FIPA.has(a.performative) ? a.performative : 'inform';
  const reasoning = a.reasoning.slice(0, plan.reasoningDepth);
  const messageId = `${plan.sessionId}-msg-${c.turn}`;
  const delegateTo = plan.delegation ? findAgent(plan.agents, a.delegate_to) : undefined;
  const delegation = delegateTo && delegateTo.id !== agent.id
    ? { from: agent.name, from_agent: agent.name, to: delegateTo.name, to_agent: delegateTo.name, task: a.delegation_task ?? `Follow up on ${agent.name}'s point`, reason: a.delegation_task ?? undefined }
    : null;

  const positions = { ...c.record.positions, [agent.id]: { agentId: agent.id, agentName: agent.name, stance: a.stance, confidence: weight, content } };
  let record: DiscussionRecord = {
    ...c.record,
    positions,
    turns: [...c.record.turns, { speakerId: agent.id, speaker: agent.name, content, stance: a.stance, confidence, reasoning, addressedTo: receiver?.name ?? null }],
    figures: {
      ...c.record.figures,
      responseMs: c.record.figures.responseMs + out.modelMs,
      responses: c.record.figures.responses + 1,
      messages: c.record.figures.messages + 1,
      delegations: c.record.figures.delegations + (delegation ? 1 : 0),
    },
  };

  const frames: Array<{ frame: EngineFrame; answeredAt?: number }> = [];
  const primary = (frame: EngineFrame) => frames.push({ frame, answeredAt: out.answeredAt });
  const also = (frame: EngineFrame) => frames.push({ frame });
  const receiverName = receiver?.name ?? 'all';
  const aclContent = { topic: plan.topic, claim: content, stance: a.stance, confidence: Number(confidence.toFixed(3)), ontology: 'agora-discussion' };
  const acl = (): EngineFrame => ({
    type: 'acl_message', performative, sender: agent.name, receiver: receiverName, content: aclContent, natural_language: content,
    message: { performative, sender: agent.name, receiver: receiverName, content: aclContent, natural_language: content },
  });

  if (plan.argumentTree) {
    const id = `${plan.sessionId}-arg-${record.arguments.length + 1}`;
    const own = receiver ? [...record.arguments].reverse().find((x) => x.agentId === receiver.id) : undefined;
    const parentId = a.argument_type === 'proposal' ? null : (own?.id ?? record.proposalId ?? record.arguments[record.arguments.length - 1]?.id ?? null);
    const node: ArgumentNode = { id, agentId: agent.id, agentName: agent.name, type: a.argument_type, content, confidence, evidence: a.evidence, parentId, stage, round: c.round };
    const becomesProposal = a.argument_type === 'proposal' || a.argument_type === 'synthesis';
    record = { ...record, arguments: [...record.arguments, node], proposalId: becomesProposal ? id : record.proposalId };
    primary({
      type: 'argument',
      argument: {
        id, agent_id: agent.id, agent_name: agent.name, type: a.argument_type, content, confidence, supporting_evidence: a.evidence,
        parent_id: parentId, votes: votesOf(record), stage: stage ?? undefined, round: c.round,
      },
    });
    if (plan.acl) also(acl());
  } else if (plan.endpoint === 'basic') {
    if (delegation) also({ type: 'delegation', delegation });
    primary({
      type: 'text', id: messageId, from_id: agent.id, from: agent.name, text: content, turn: c.turn,
      reasoning: reasoning.length ? reasoning.join(' → ') : null, evidence: a.evidence.length ? a.evidence : null, delegation,
      turn_reason: c.speakerReason,
    });
  } else {
    const mode = c.mode;
    const structured = mode === 'structured';
    const formalComms = plan.acl && mode !== 'natural' ? [{ performative, receiver: receiverName, content: aclContent }] : [];
    primary({
      type: 'agent_message', id: messageId, agent_id: agent.id, agent_name: agent.name, agent_role: agent.role,
      content: structured ? formal(performative, agent.name, receiverName, content, a, confidence) : content,
      message_type: mode ?? (plan.endpoint === 'enhanced' ? 'enhanced' : 'hybrid'),
      confidence, reasoning_chain: reasoning, formal_communications: formalComms, round: plan.announceRounds ? c.round : undefined,
      tts_pending: c.speechOn || undefined, turn_reason: c.speakerReason,
    });
    if (plan.acl && mode !== 'natural') also(acl());
    if (delegation) also({ type: 'delegation', delegation });
    if (receiver && REQUESTING.has(performative)) also({ type: 'request', from_agent: agent.name, to_agent: receiver.name, action: performative, content });
    if (plan.endpoint === 'hybrid') also({ type: 'performance_metric', metric: 'response_time_ms', value: Math.round(out.modelMs) });
  }
  also({ type: 'agent_status', agent_id: agent.id, agent_name: agent.name, status: 'speaking' });

  return {
    patch: {
      record,
      failures: 0,
      turnInStage: c.turnInStage + 1,
      prevSpeakerId: c.lastSpeakerId,
      lastSpeakerId: agent.id,
      lastAddressedTo: receiver?.name ?? null,
      lastPicked: a.next_speaker ?? null,
      delegation: delegation && delegateTo ? { toId: delegateTo.id, from: agent.name, task: delegation.task } : null,
      lastMessageId: messageId,
    },
    frames,
  };
}

/** A failed turn still counts as the agent's turn, so a broken model cannot stall the table. */
export function failTurn(c: EngineContext, why: string): Step {
  const agent = speakerOf(c);
  return {
    patch: { failures: c.failures + 1, turnInStage: c.turnInStage + 1, prevSpeakerId: c.lastSpeakerId, lastSpeakerId: agent.id },
    frames: say(
      { type: 'error', message: ENGINE_MESSAGES.llmFailed(agent.name, why), fatal: false },
      { type: 'agent_status', agent_id: agent.id, agent_name: agent.name, status: 'idle' },
    ),
  };
}

export function speakInput(c: EngineContext): SpeakInput {
  const agent = speakerOf(c);
  const last = c.record.turns[c.record.turns.length - 1];
  const text = (last?.content ?? '').slice(0, c.plan.speech.maxChars);
  return { text, agentId: agent.id, agentName: agent.name, audioId: `${c.plan.sessionId}-audio-${c.audioSeq + 1}`, speed: c.plan.speech.speed, format: c.plan.speech.format };
}

export function beginSpeech(c: EngineContext): Step {
  const agent = speakerOf(c);
  return { patch: { audioSeq: c.audioSeq + 1 }, frames: say({ type: 'tts_streaming_start', agent_name: agent.name, agent_id: agent.id, total_chunks: 1 }) };
}

export function shareAudio(c: EngineContext, out: SpeakOutput): Step {
  const agent = speakerOf(c);
  const audioId = `${c.plan.sessionId}-audio-${c.audioSeq}`;
  const f = c.record.figures;
  return {
    patch: { pendingAudioId: audioId, record: { ...c.record, figures: { ...f, audio: f.audio + 1, ttsMs: f.ttsMs + out.ttsMs } } },
    frames: say(
      { type: 'audio_message', agent_id: agent.id, agent_name: agent.name, audio_url: out.audioUrl, audio_id: audioId, message_id: c.lastMessageId ?? undefined },
      { type: 'tts_streaming_end', agent_name: agent.name, agent_id: agent.id },
      { type: 'performance_metric', metric: 'tts_time_ms', value: Math.round(out.ttsMs) },
    ),
  };
}

export function speechFailed(c: EngineContext, why: string): Step {
  const agent = speakerOf(c);
  return {
    patch: {},
    frames: say({ type: 'tts_error', agent_name: agent.name, agent_id: agent.id, error: why }, { type: 'tts_streaming_end', agent_name: agent.name, agent_id: agent.id }),
  };
}

export function rest(c: EngineContext): Step {
  const agent = speakerOf(c);
  return { patch: { pendingAudioId: null }, frames: say({ type: 'agent_status', agent_id: agent.id, agent_name: agent.name, status: 'idle' }) };
}

export function noteHuman(c: EngineContext, text: string): Step {
  const mentioned = c.plan.agents.find((a) => new RegExp(`\\b${a.name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\b`, 'i').test(text));
  return {
    patch: {
      record: { ...c.record, turns: [...c.record.turns, { speakerId: null, speaker: 'Human', content: text, human: true }] },
      lastAddressedTo: mentioned?.name ?? c.lastAddressedTo,
    },
    frames: [],
  };
}

/** Round end: the agreement so far, and for adaptive mode the switch between natural and structured. */
export function endRound(c: EngineContext): Step {
  const { plan } = c;
  const m = consensusOf(plan, c.record);
  const converged = plan.consensus.stopEarly && hasConverged(m, plan.consensus.threshold);
  const frames: EngineFrame[] = [];
  if (plan.announceRounds) frames.push({ type: 'round_end', round: c.round, agreement: m.score });
  if (plan.endpoint === 'hybrid') frames.push({ type: 'performance_metric', metric: 'consensus_score', value: m.score });
  let mode = c.mode;
  if (plan.hybridMode === 'adaptive' && m.complete) {
    const next: HybridMode = m.score < ADAPTIVE_DISAGREE_BELOW ? 'structured' : m.score >= ADAPTIVE_CONVERGE_AT ? 'natural' : (mode ?? 'natural');
    if (next !== mode) {
      frames.push({
        type: 'system',
        content: next === 'structured'
          ? `Adaptive mode: the agents disagree (agreement ${m.score.toFixed(2)}); switching to structured ACL.`
          : `Adaptive mode: the agents are converging (agreement ${m.score.toFixed(2)}); back to natural language.`,
      });
      mode = next;
    }
  }
  return { patch: { converged, mode }, frames: say(...frames) };
}

/** Adaptive mode moves to structured ACL below this agreement, and back to natural language at or above the other. */
export const ADAPTIVE_DISAGREE_BELOW = 0.5;
export const ADAPTIVE_CONVERGE_AT = 0.65;

export const wantsConclusion = (c: EngineContext) => c.plan.consensus.announce;

/** consensus_reached and discussion_summary, once, when the discussion concludes. */
export function conclude(c: EngineContext, summary: string | null): Step {
  const { plan, record } = c;
  const m = consensusOf(plan, record);
  const f = record.figures;
  const reached = hasConverged(m, plan.consensus.threshold);
  const rounds = plan.announceRounds ? c.round : undefined;
  const text = summary?.trim() || fallbackSummary(c, m.score);
  return {
    patch: {},
    frames: say(
      {
        type: 'consensus_reached', score: m.score, reached,
        consensus: { solution: solutionOf(record), confidence: m.confidence, support_level: m.supportLevel, dissenting_opinions: m.dissent },
      },
      {
        type: 'discussion_summary',
        summary: {
          text, rounds, message_count: f.messages, consensus_score: m.score,
          performance_metrics: {
            avgResponseTime: averageResponseMs(f), avgTtsTime: averageTtsMs(f), totalAudioGenerated: f.audio, messageCount: f.messages,
            delegationCount: f.delegations, consensusScore: m.score,
          },
        },
      },
    ),
  };
}

function fallbackSummary(c: EngineContext, score: number): string {
  const who = c.plan.agents.map((a) => a.name).join(', ');
  const solution = solutionOf(c.record);
  return `${who} discussed "${c.plan.topic}" over ${c.record.figures.messages} messages${c.plan.announceRounds ? ` in ${c.round} round${c.round === 1 ? '' : 's'}` : ''}. Agreement reached ${score.toFixed(2)}.${solution ? ` Leading position: ${solution}` : ''}`;
}

export const endFrame = (c: EngineContext, reason: string): EngineFrame => ({ type: 'discussion_ended', reason, session_id: c.plan.sessionId });

/** On stop: whoever was mid-turn goes back to idle before the end is announced. */
export function stopFrames(c: EngineContext, reason: string, midTurn: boolean): EngineFrame[] {
  const frames: EngineFrame[] = [];
  if (midTurn && c.speakerId) {
    const agent = speakerOf(c);
    frames.push({ type: 'agent_status', agent_id: agent.id, agent_name: agent.name, status: 'idle' });
  }
  frames.push(endFrame(c, reason));
  return frames;
}

export const endReason = (c: EngineContext) => (c.converged ? 'consensus' : 'completed');
