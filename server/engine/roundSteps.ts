import { ENGINE_MESSAGES } from '../../src/schemas/messages';
import { budgetReached } from './budget';
import { hasConverged } from './consensus';
import {
  frameIdBase,
  only,
  say,
  speakerOf,
  stageOf,
  type EngineContext,
  type ResearchInput,
  type ResearchOutput,
  type Step,
} from './context';
import type { EngineFrame } from './frames';
import type { HybridMode, Plan } from './plan';
import { outcomeOf } from './positions/outcome';
import { averageResponseMs, averageTtsMs, consensusOf, solutionOf } from './record';
import { closeDraft, usageField } from './turnFrames';

// The steps around the turns: the opening, research, rounds and stages, the adaptive switch, the conclusion and
// the end (completed, failed or stopped). Each takes the machine's context (and an actor's output) and returns the
// context patch and the frames to send; discussion.machine.ts decides when each runs.

/** The stored discussion's id on the opening frame (the id History lists), so a client can address a live run. */
const discussionIdOf = (p: Plan) => (p.discussionId ? { discussion_id: p.discussionId } : {});

const participants = (p: Plan) => p.agents.map((a) => ({ id: a.id, name: a.name, role: a.role }));

export function opening(c: EngineContext): Step {
  const { plan } = c;
  const frames: EngineFrame[] = [];
  if (plan.endpoint === 'basic' || plan.endpoint === 'enhanced') {
    frames.push({
      type: 'discussion_started',
      session_id: plan.sessionId,
      ...discussionIdOf(plan),
      endpoint: plan.endpoint,
      participants: participants(plan),
      topic: plan.topic,
    });
  } else {
    frames.push({
      type: 'discussion_initialized',
      session_id: plan.sessionId,
      ...discussionIdOf(plan),
      mode: plan.hybridMode ?? plan.endpoint,
      participants: participants(plan),
      topic: plan.topic,
      max_rounds: plan.rounds,
    });
  }
  if (c.speechMissing) frames.push({ type: 'tts_error', agent_name: 'System', error: ENGINE_MESSAGES.noSpeechEngine });
  if (plan.hybridMode === 'adaptive')
    frames.push({
      type: 'system',
      content: 'Adaptive mode: starting in natural language; switching to structured ACL if the agents disagree.',
    });
  return only(...frames);
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
    return {
      patch: {},
      frames: say({ type: 'research_results', query: out.query, results: [], unavailable: out.unavailable }),
    };
  }
  if (!out.results.length)
    return { patch: {}, frames: say({ type: 'research_results', query: out.query, results: [] }) };
  return {
    patch: { record: { ...c.record, evidence } },
    frames: say(
      ...out.results.map(
        (result): EngineFrame => ({ type: 'research_result', result: { ...result, query: result.query ?? out.query } }),
      ),
    ),
  };
}

/** The search itself broke (not one service failing, which shareResearch reports; runtime.ts logs the error): plain words. */
export const researchFailed = (c: EngineContext): Step => ({
  patch: {},
  frames: say({
    type: 'research_results',
    query: c.plan.topic,
    results: [],
    unavailable: ENGINE_MESSAGES.researchUnavailable,
  }),
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
    frames: say(
      ...(stage
        ? [{ type: 'reasoning_stage', stage, round: c.round, description: `Round ${c.round}: ${stage}` } as EngineFrame]
        : []),
    ),
  };
}

/** Round end: the agreement so far, and for adaptive mode the switch between natural and structured. */
export function endRound(c: EngineContext): Step {
  const { plan } = c;
  const m = consensusOf(plan, c.record);
  const converged = plan.consensus.stopEarly && hasConverged(m, plan.consensus.threshold);
  const frames: EngineFrame[] = [];
  if (plan.announceRounds) frames.push({ type: 'round_end', round: c.round, agreement: m.score });
  if (plan.endpoint === 'hybrid')
    frames.push({ type: 'performance_metric', metric: 'consensus_score', value: m.score });
  let mode = c.mode;
  if (plan.hybridMode === 'adaptive' && m.complete) {
    const next: HybridMode =
      m.score < ADAPTIVE_DISAGREE_BELOW
        ? 'structured'
        : m.score >= ADAPTIVE_CONVERGE_AT
          ? 'natural'
          : (mode ?? 'natural');
    if (next !== mode) {
      frames.push({
        type: 'system',
        content:
          next === 'structured'
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

/** The id of the closing summary's stream and of its discussion_summary frame. */
export const summaryIdOf = (c: EngineContext) => `${frameIdBase(c.plan)}-summary`;

/** The summary's first words: it streams like a turn, written by the first participant's model (prompt.ts). */
export function openSummary(c: EngineContext): Step {
  const writer = c.plan.agents[0];
  const id = summaryIdOf(c);
  return {
    patch: { draft: { id, text: '' }, speakerId: writer.id },
    frames: say({ type: 'agent_message_start', id, agent_id: writer.id, agent_name: writer.name, kind: 'summary' }),
  };
}

/** consensus_reached, once, as the discussion concludes: before the summary is written (and streamed). */
export function announceConsensus(c: EngineContext): Step {
  if (!wantsConclusion(c)) return { patch: {}, frames: [] };
  const m = consensusOf(c.plan, c.record);
  const reached = hasConverged(m, c.plan.consensus.threshold);
  return only({
    type: 'consensus_reached',
    score: m.score,
    ...(m.halved ? { consensus_halved: m.halved } : {}),
    reached,
    consensus: {
      solution: solutionOf(c.record, m.leader),
      confidence: m.confidence,
      support_level: m.supportLevel,
      dissenting_opinions: m.dissent,
    },
    dissent: m.dissenters,
    ...outcomeOf(c.plan, c.record),
  });
}

/** discussion_summary, once, when the summary is written; it closes the summary's stream. */
export function conclude(c: EngineContext, summary: string | null): Step {
  const { plan, record } = c;
  const m = consensusOf(plan, record);
  const f = record.figures;
  const rounds = plan.announceRounds ? c.round : undefined;
  const text = summary?.trim() || fallbackSummary(c, m.score);
  return {
    patch: { draft: null, unbilled: null },
    frames: say({
      type: 'discussion_summary',
      id: summaryIdOf(c),
      ...usageField(c),
      summary: {
        text,
        rounds,
        message_count: f.messages,
        consensus_score: m.score,
        performance_metrics: {
          avgResponseTime: averageResponseMs(f),
          avgTtsTime: averageTtsMs(f),
          totalAudioGenerated: f.audio,
          messageCount: f.messages,
          delegationCount: f.delegations,
          consensusScore: m.score,
        },
        ...outcomeOf(plan, record),
      },
    }),
  };
}

function fallbackSummary(c: EngineContext, score: number): string {
  const who = c.plan.agents.map((a) => a.name).join(', ');
  const solution = solutionOf(c.record);
  return `${who} discussed "${c.plan.topic}" over ${c.record.figures.messages} messages${c.plan.announceRounds ? ` in ${c.round} round${c.round === 1 ? '' : 's'}` : ''}. Agreement reached ${score.toFixed(2)}.${solution ? ` Leading position: ${solution}` : ''}`;
}

export const endFrame = (c: EngineContext, reason: string): EngineFrame => ({
  type: 'discussion_ended',
  reason,
  session_id: c.plan.sessionId,
});

/** On stop: a message being streamed is closed as interrupted, whoever was mid-turn goes back to idle, then the end. */
export function stopStep(c: EngineContext, reason: string): Step {
  const frames: Step['frames'] = [];
  if (c.speakerId) {
    frames.push(...closeDraft(c).frames);
    const agent = speakerOf(c);
    frames.push({ frame: { type: 'agent_status', agent_id: agent.id, agent_name: agent.name, status: 'idle' } });
  }
  frames.push({ frame: endFrame(c, reason) });
  return { patch: { draft: null }, frames };
}

/** Too many failed turns in a row: a fatal error, then the end. */
export const failedStep = (c: EngineContext): Step =>
  only(
    { type: 'error', message: `The discussion ended: ${c.failures} turns in a row failed.`, fatal: true },
    endFrame(c, 'failed'),
  );

export const endStep = (c: EngineContext): Step => only(endFrame(c, endReason(c)));

export const endReason = (c: EngineContext) => (budgetReached(c) ? 'budget' : c.converged ? 'consensus' : 'completed');

export const nextStage = (c: EngineContext): Step => ({ patch: { stageIndex: c.stageIndex + 1 }, frames: [] });
