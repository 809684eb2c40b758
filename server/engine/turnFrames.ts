import { ENGINE_MESSAGES } from '../../src/schemas/messages';
import { limitWords } from './answer';
import {
  frameIdBase,
  messageIdOf,
  say,
  speakerOf,
  stageOf,
  type EngineContext,
  type SpeakInput,
  type SpeakOutput,
  type Step,
  type ThinkInput,
  type ThinkOutput,
} from './context';
import { wireUsage } from './usage';
import type { EngineFrame } from './frames';
import { positionTurn } from './positions/turn';
import { turnRequest } from './prompt';
import { votesOf, withTurn, type ArgumentNode, type DiscussionRecord } from './record';
import { orderedSpeaker } from './formats/floor';
import { findAgent } from './speakers';
import type { Citation } from '../../src/schemas/sources';
import type { AgentRef, Plan } from './plan';
import type { TurnAnswer } from './turnAnswer';
import { citationsOf } from '../sources/citations';

// One agent's turn and everything each panel is sent for it: who has the floor, the streamed draft
// (agent_message_start / agent_message_delta), the final message in the panel's own shape (`text` for the basic
// socket, `argument` for the argument tree, `agent_message` otherwise, with the ACL, delegation, request and metric
// frames that go with it), a failed or interrupted turn, speech, and a human's message. "Why did the hybrid panel
// get this field?" is answered here. Every turn streams, the argument tree's too: its `argument` carries the
// draft's id, so the panel's streamed placeholder becomes the argument in place.

export function chooseSpeaker(c: EngineContext): Step {
  const { agent, reason } = orderedSpeaker(c);
  const answering =
    reason === 'delegation' && c.delegation ? { from: c.delegation.from, task: c.delegation.task } : null;
  return {
    patch: {
      speakerId: agent.id,
      turn: c.turn + 1,
      delegation: null,
      answering,
      speakerReason: reason,
      draft: null,
      failure: null,
    },
    frames: say({ type: 'agent_status', agent_id: agent.id, agent_name: agent.name, status: 'thinking' }),
  };
}

export const thinkInput = (c: EngineContext): ThinkInput => {
  const agent = speakerOf(c);
  return {
    request: turnRequest(c.plan, c.record, agent, {
      turn: c.turn,
      round: c.round,
      stage: stageOf(c),
      delegation: c.answering,
      mode: c.mode,
    }),
    stage: stageOf(c),
    ...(agent.tools?.length
      ? {
          tools: {
            agentId: agent.id,
            agentName: agent.name,
            messageId: messageIdOf(c),
            ids: agent.tools,
            askFirst: agent.askBeforeTools === true,
            sourceIds: [...new Set([...(c.plan.sourceIds ?? []), ...(agent.sourceIds ?? [])])],
          },
        }
      : {}),
  };
};

const FIPA = new Set([
  'inform',
  'request',
  'propose',
  'accept-proposal',
  'reject-proposal',
  'query-if',
  'query-ref',
  'agree',
  'refuse',
  'confirm',
  'disconfirm',
  'cfp',
  'inform-if',
  'not-understood',
]);
const REQUESTING = new Set(['request', 'query-if', 'query-ref', 'cfp']);

/** The answered turn's first words on a message card: enough to recognise it, never the whole turn again. */
const EXCERPT_CHARS = 60;

/** The turn a message answers: the addressee's latest, else the latest by someone else; its first words. */
function answeredTurn(turns: readonly { speaker: string; content: string }[], sender: string, to: string | null) {
  const other = (t: { speaker: string }) => (to ? t.speaker === to : t.speaker !== sender);
  const t = [...turns].reverse().find(other);
  if (!t) return null;
  const words = t.content.replace(/\s+/g, ' ').trim();
  const excerpt = words.length > EXCERPT_CHARS ? `${words.slice(0, EXCERPT_CHARS - 1).trimEnd()}…` : words;
  return { sender: t.speaker, excerpt };
}

/** The evidence rule's test: with sources attached, a verified citation; without, any evidence the answer names. */
function isEvidenced(plan: Plan, agent: AgentRef, a: TurnAnswer, citations: readonly Citation[]): boolean {
  const sourced = Boolean(plan.sourceIds?.length || agent.sourceIds?.length);
  return sourced ? citations.some((c) => c.verified) : a.evidence.length > 0;
}

/** Everything one agent's answer changes and says. */
export function recordTurn(c: EngineContext, out: ThinkOutput): Step {
  const { plan } = c;
  const agent = speakerOf(c);
  const a = out.answer;
  const stage = stageOf(c);
  const content = limitWords(a.content.trim(), plan.maxWords);
  // What the agent said of itself is shown as said; only its weight in the consensus is halved when evidence
  // was required and it gave none (see consensus.ts).
  const confidence = a.confidence;
  const citations = citationsOf(content, out.passages ?? []);
  const weight = plan.requireEvidence && !isEvidenced(plan, agent, a, citations) ? a.confidence * 0.5 : a.confidence;
  const addressee = findAgent(plan.agents, a.addressed_to);
  const receiver = addressee && addressee.id !== agent.id ? addressee : undefined;
  const performative = FIPA.has(a.performative) ? a.performative : 'inform';
  const reasoning = a.reasoning.slice(0, plan.reasoningDepth);
  const messageId = messageIdOf(c);
  const delegateTo = plan.delegation ? findAgent(plan.agents, a.delegate_to) : undefined;
  const delegation =
    delegateTo && delegateTo.id !== agent.id
      ? {
          from: agent.name,
          from_agent: agent.name,
          to: delegateTo.name,
          to_agent: delegateTo.name,
          task: a.delegation_task ?? `Follow up on ${agent.name}'s point`,
          reason: a.delegation_task ?? undefined,
        }
      : null;

  const held = positionTurn(plan, c.record, agent, a, weight, content);
  let record: DiscussionRecord = {
    ...c.record,
    ...held.record,
    ...withTurn(c.record, {
      speakerId: agent.id,
      speaker: agent.name,
      content,
      stance: a.stance,
      confidence,
      reasoning,
      addressedTo: receiver?.name ?? null,
      optionId: held.optionId,
    }),
    figures: {
      ...c.record.figures,
      responseMs: c.record.figures.responseMs + out.modelMs,
      responses: c.record.figures.responses + 1,
      messages: c.record.figures.messages + 1,
      delegations: c.record.figures.delegations + (delegation ? 1 : 0),
    },
  };

  const frames: Array<{ frame: EngineFrame; answeredAt?: number }> = held.frames.map((frame) => ({ frame }));
  const primary = (frame: EngineFrame) =>
    frames.push({
      frame: { ...frame, ...held.fields, ...(citations.length ? { citations } : {}), ...usageField(c) } as EngineFrame,
      answeredAt: out.answeredAt,
    });
  const also = (frame: EngineFrame) => frames.push({ frame });
  const receiverName = receiver?.name ?? 'all';
  const aclContent = {
    topic: plan.topic,
    claim: content,
    stance: a.stance,
    confidence: Number(confidence.toFixed(3)),
    ontology: 'agora-discussion',
  };
  const answered = answeredTurn(c.record.turns, agent.name, receiver?.name ?? null);
  const acl = (): EngineFrame => ({
    type: 'acl_message',
    performative,
    sender: agent.name,
    receiver: receiverName,
    content: aclContent,
    natural_language: content,
    ...(answered ? { reply_to: answered } : {}),
    message: {
      performative,
      sender: agent.name,
      receiver: receiverName,
      content: aclContent,
      natural_language: content,
    },
  });

  if (plan.argumentTree) {
    // The streamed draft's id (one per turn, unlike a count of arguments, which a failed turn would repeat).
    const id = messageId;
    const own = receiver ? [...record.arguments].reverse().find((x) => x.agentId === receiver.id) : undefined;
    const parentId =
      a.argument_type === 'proposal'
        ? null
        : (own?.id ?? record.proposalId ?? record.arguments[record.arguments.length - 1]?.id ?? null);
    const node: ArgumentNode = {
      id,
      agentId: agent.id,
      agentName: agent.name,
      type: a.argument_type,
      content,
      confidence,
      evidence: a.evidence,
      parentId,
      stage,
      round: c.round,
    };
    const becomesProposal = a.argument_type === 'proposal' || a.argument_type === 'synthesis';
    record = {
      ...record,
      arguments: [...record.arguments, node],
      proposalId: becomesProposal ? id : record.proposalId,
    };
    primary({
      type: 'argument',
      argument: {
        id,
        agent_id: agent.id,
        agent_name: agent.name,
        type: a.argument_type,
        content,
        confidence,
        supporting_evidence: a.evidence,
        parent_id: parentId,
        votes: votesOf(record),
        stage: stage ?? undefined,
        round: c.round,
      },
    });
    if (plan.acl) also(acl());
  } else if (plan.endpoint === 'basic') {
    if (delegation) also({ type: 'delegation', delegation });
    primary({
      type: 'text',
      id: messageId,
      from_id: agent.id,
      from: agent.name,
      text: content,
      turn: c.turn,
      reasoning: reasoning.length ? reasoning.join(' → ') : null,
      evidence: a.evidence.length ? a.evidence : null,
      delegation,
      turn_reason: c.speakerReason,
    });
  } else {
    const mode = c.mode;
    const formalComms =
      plan.acl && mode !== 'natural' ? [{ performative, receiver: receiverName, content: aclContent }] : [];
    primary({
      type: 'agent_message',
      id: messageId,
      agent_id: agent.id,
      agent_name: agent.name,
      agent_role: agent.role,
      // The sentence is the message in every mode; in structured mode its ACL expression rides in the acl_message
      // frame below (the turn's details disclosure), not in the bubble.
      content,
      message_type: mode ?? (plan.endpoint === 'enhanced' ? 'enhanced' : 'hybrid'),
      confidence,
      reasoning_chain: reasoning,
      formal_communications: formalComms,
      round: plan.announceRounds ? c.round : undefined,
      tts_pending: c.speechOn || undefined,
      turn_reason: c.speakerReason,
    });
    if (plan.acl && mode !== 'natural') also(acl());
    if (delegation) also({ type: 'delegation', delegation });
    if (receiver && REQUESTING.has(performative))
      also({ type: 'request', from_agent: agent.name, to_agent: receiver.name, action: performative, content });
    if (plan.endpoint === 'hybrid')
      also({ type: 'performance_metric', metric: 'response_time_ms', value: Math.round(out.modelMs) });
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
      draft: null,
      unbilled: null,
    },
    frames,
  };
}

/** The tokens not yet on a frame (this turn's calls, and the quiet calls before it), for the turn's final frame. */
export const usageField = (c: Pick<EngineContext, 'unbilled'>) => (c.unbilled ? { usage: wireUsage(c.unbilled) } : {});

/** A failed turn (model error or time-out) still counts as the agent's turn, so a broken model cannot stall the table. */
export function failTurn(c: EngineContext): Step {
  const agent = speakerOf(c);
  return {
    patch: {
      failures: c.failures + 1,
      turnInStage: c.turnInStage + 1,
      prevSpeakerId: c.lastSpeakerId,
      lastSpeakerId: agent.id,
      draft: null,
      failure: null,
    },
    frames: [
      ...closeDraft(c).frames,
      ...say(
        { type: 'error', message: ENGINE_MESSAGES.llmFailed(agent.name, c.failure ?? 'unknown error'), fatal: false },
        { type: 'agent_status', agent_id: agent.id, agent_name: agent.name, status: 'idle' },
      ),
    ],
  };
}

// ── The streamed draft ──

/** The model's first words: the panel opens a message with this id; the final frame will carry the same id. */
export function openDraft(c: EngineContext): Step {
  const agent = speakerOf(c);
  const id = messageIdOf(c);
  const stage = stageOf(c);
  return {
    patch: { draft: { id, text: '' } },
    frames: say({
      type: 'agent_message_start',
      id,
      agent_id: agent.id,
      agent_name: agent.name,
      ...(c.plan.announceRounds ? { round: c.round } : {}),
      ...(stage ? { stage } : {}),
    }),
  };
}

/** More of the reply's text. Ephemeral on the wire: the session neither stores nor replays it. */
export function streamDelta(c: EngineContext, text: string, tokenAt?: number): Step {
  const draft = c.draft ?? { id: messageIdOf(c), text: '' };
  return {
    patch: { draft: { id: draft.id, text: draft.text + text } },
    frames: [
      {
        frame: { type: 'agent_message_delta', id: draft.id, delta: text },
        ...(tokenAt !== undefined ? { tokenAt } : {}),
      },
    ],
  };
}

/**
 * The final frame of a draft that will not be finished (stop, time-out, a broken reply): what was streamed so far,
 * marked `interrupted`, in the shape the endpoint's messages have, so the panel's placeholder is closed.
 */
export function closeDraft(c: EngineContext): Step {
  const { draft, plan } = c;
  if (!draft) return { patch: {}, frames: [] };
  const agent = speakerOf(c);
  const frame: EngineFrame =
    plan.endpoint === 'basic'
      ? {
          type: 'text',
          id: draft.id,
          from_id: agent.id,
          from: agent.name,
          text: draft.text,
          turn: c.turn,
          interrupted: true,
          turn_reason: c.speakerReason,
        }
      : {
          type: 'agent_message',
          id: draft.id,
          agent_id: agent.id,
          agent_name: agent.name,
          agent_role: agent.role,
          content: draft.text,
          message_type: c.mode ?? (plan.endpoint === 'enhanced' ? 'enhanced' : 'hybrid'),
          round: plan.announceRounds ? c.round : undefined,
          interrupted: true,
          turn_reason: c.speakerReason,
        };
  return { patch: { draft: null }, frames: say(frame) };
}

// ── Speech ──

export function speakInput(c: EngineContext): SpeakInput {
  const agent = speakerOf(c);
  const last = c.record.turns[c.record.turns.length - 1];
  const text = (last?.content ?? '').slice(0, c.plan.speech.maxChars);
  return {
    text,
    agentId: agent.id,
    agentName: agent.name,
    audioId: `${frameIdBase(c.plan)}-audio-${c.audioSeq + 1}`,
    speed: c.plan.speech.speed,
    format: c.plan.speech.format,
  };
}

export function beginSpeech(c: EngineContext): Step {
  const agent = speakerOf(c);
  return {
    patch: { audioSeq: c.audioSeq + 1 },
    frames: say({ type: 'tts_streaming_start', agent_name: agent.name, agent_id: agent.id, total_chunks: 1 }),
  };
}

export function shareAudio(c: EngineContext, out: SpeakOutput): Step {
  const agent = speakerOf(c);
  const audioId = `${frameIdBase(c.plan)}-audio-${c.audioSeq}`;
  const f = c.record.figures;
  const said = c.voiceFailuresSaid ?? [];
  const tellFailure = !!out.voiceError && !said.includes(agent.id);
  return {
    patch: {
      pendingAudioId: audioId,
      record: { ...c.record, figures: { ...f, audio: f.audio + 1, ttsMs: f.ttsMs + out.ttsMs } },
      ...(tellFailure ? { voiceFailuresSaid: [...said, agent.id] } : {}),
    },
    frames: say(
      ...(tellFailure
        ? [{ type: 'tts_error' as const, agent_name: agent.name, agent_id: agent.id, error: out.voiceError! }]
        : []),
      {
        type: 'audio_message',
        agent_id: agent.id,
        agent_name: agent.name,
        audio_url: out.audioUrl,
        audio_id: audioId,
        message_id: c.lastMessageId ?? undefined,
      },
      { type: 'tts_streaming_end', agent_name: agent.name, agent_id: agent.id },
      { type: 'performance_metric', metric: 'tts_time_ms', value: Math.round(out.ttsMs) },
    ),
  };
}

export function speechFailed(c: EngineContext, why: string, final = false): Step {
  const agent = speakerOf(c);
  return {
    // A final failure (the speech quota) is said once; later turns are not spoken at all.
    patch: final ? { speechOn: false } : {},
    frames: say(
      { type: 'tts_error', agent_name: agent.name, agent_id: agent.id, error: why },
      { type: 'tts_streaming_end', agent_name: agent.name, agent_id: agent.id },
    ),
  };
}

export function rest(c: EngineContext): Step {
  const agent = speakerOf(c);
  return {
    patch: { pendingAudioId: null },
    frames: say({ type: 'agent_status', agent_id: agent.id, agent_name: agent.name, status: 'idle' }),
  };
}

export function noteHuman(c: EngineContext, text: string): Step {
  const mentioned = c.plan.agents.find((a) =>
    new RegExp(`\\b${a.name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\b`, 'i').test(text),
  );
  return {
    patch: {
      record: { ...c.record, ...withTurn(c.record, { speakerId: null, speaker: 'Human', content: text, human: true }) },
      lastAddressedTo: mentioned?.name ?? c.lastAddressedTo,
    },
    frames: [],
  };
}
