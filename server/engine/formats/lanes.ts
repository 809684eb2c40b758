import { COUNCIL_PARALLEL_ANSWERS } from '../../../src/schemas/constants';
import { say, type EngineContext, type Step, type ThinkInput, type ThinkOutput } from '../context';
import type { EngineFrame } from '../frames';
import * as turn from '../turnFrames';
import { nextFloor } from './floor';
import { formatThinkInput } from './prompts';
import { definitionOf } from './registry';
import type { FormatState, Lane } from './state';
import { failFormatTurn, recordAnswer } from './steps';

// A council's first answers, asked for at once: each agent's prompt holds the question alone, so nothing is lost by
// not waiting for the others. Every answer is a lane — its own turn number (its message id), its own streamed draft —
// and at most `parallelAnswers` model calls run together; each answer is recorded as it comes, in the order they
// finish. With speech on the answers stay one at a time (each is spoken before the next).

const lanesOf = (c: EngineContext): Lane[] => c.format?.lanes ?? [];
const withLanes = (s: FormatState, lanes: Lane[] | null): Partial<EngineContext> => ({
  format: { ...s, lanes },
});

/** The next floor opens the council's first stage, with speech off: the answers are asked for together. */
export function startsParallelAnswers(c: EngineContext): boolean {
  const s = c.format;
  const f = c.plan.format;
  if (!f || !definitionOf(f).answersAtOnce || !s || s.step !== 0 || s.repair || s.pending || c.speechOn) return false;
  const fl = nextFloor(c);
  return fl.kind === 'turn' && fl.fromScript && fl.slot.task === 'answer';
}

/** The engine's context as lane `i` sees it: its speaker, turn, draft and slot. */
export function laneContext(c: EngineContext, i: number, failure: string | null = null): EngineContext {
  const lane = lanesOf(c)[i];
  return {
    ...c,
    speakerId: lane.agentId,
    turn: lane.turn,
    draft: lane.draft,
    failure,
    format: {
      ...c.format!,
      current: {
        agentId: lane.agentId,
        task: 'answer',
        stage: 'answers',
        by: 'order',
        reason: 'next in order',
        fromScript: true,
      },
    },
  };
}

/** Stage 1 begins: its row, every agent's floor and 'thinking', one lane each (all waiting). */
export function openAnswers(c: EngineContext): Step {
  const s = c.format!;
  const agents = c.plan.agents;
  const lanes: Lane[] = agents.map((a, i) => ({ agentId: a.id, turn: c.turn + 1 + i, state: 'waiting', draft: null }));
  const f = c.plan.format!;
  const t = definitionOf(f).stages.answers;
  const frames: EngineFrame[] = [
    { type: 'format_stage', format: f.kind, stage: 'answers', title: t.title, description: t.description },
    ...agents.flatMap((a): EngineFrame[] => [
      { type: 'floor', agent_id: a.id, agent_name: a.name, by: 'order', reason: 'next in order' },
      { type: 'agent_status', agent_id: a.id, agent_name: a.name, status: 'thinking' },
    ]),
  ];
  return {
    patch: { turn: c.turn + agents.length, ...withLanes({ ...s, announced: 'answers', current: null }, lanes) },
    frames: say(...frames),
  };
}

/** The lanes to start now (waiting ones, up to the bound of calls at once), marked thinking, with their prompts. */
export function lanesToStart(c: EngineContext): { patch: Partial<EngineContext>; start: ThinkInput[] } {
  const lanes = [...lanesOf(c)];
  const bound = Math.max(1, c.plan.timing.parallelAnswers ?? COUNCIL_PARALLEL_ANSWERS);
  let running = lanes.filter((l) => l.state === 'thinking').length;
  const start: ThinkInput[] = [];
  lanes.forEach((l, i) => {
    if (l.state !== 'waiting' || running >= bound) return;
    lanes[i] = { ...l, state: 'thinking' };
    running++;
    start.push({ ...formatThinkInput(laneContext(c, i)), lane: i });
  });
  return { patch: start.length ? withLanes(c.format!, lanes) : {}, start };
}

/** The lane's words so far, streamed as its own message. */
export function laneDelta(c: EngineContext, i: number, text: string, tokenAt: number): Step {
  const lc = laneContext(c, i);
  const open = lc.draft ? { patch: {}, frames: [] } : turn.openDraft(lc);
  const after = { ...lc, ...open.patch };
  const delta = turn.streamDelta(after, text, tokenAt);
  const lanes = lanesOf(c).map((l, j) => (j === i ? { ...l, draft: delta.patch.draft ?? l.draft } : l));
  return { patch: withLanes(c.format!, lanes), frames: [...open.frames, ...delta.frames] };
}

/** What a lane's step changed that is the discussion's, not the lane's (its speaker, turn and draft stay its own). */
function settle(c: EngineContext, i: number, step: Step, state: Lane['state']): Step {
  const lanes = lanesOf(c).map((l, j) => (j === i ? { ...l, state, draft: null } : l));
  const { speakerId: _s, turn: _t, draft: _d, failure: _f, format, ...rest } = step.patch;
  return { patch: { ...rest, ...withLanes({ ...(format ?? c.format!), current: null }, lanes) }, frames: step.frames };
}

/** A lane's answer: recorded as it comes (labelled in the order the answers finish), then its agent is idle. */
export function laneDone(c: EngineContext, i: number, out: ThinkOutput): Step {
  const lc = laneContext(c, i);
  const rec = recordAnswer(lc, out);
  const idle = turn.rest({ ...lc, ...rec.patch });
  return settle(c, i, { patch: rec.patch, frames: [...rec.frames, ...idle.frames] }, 'done');
}

/** A lane that failed (or ran out of time): its error row, and the council goes on without its answer. */
export function laneFailed(c: EngineContext, i: number, error: string): Step {
  return settle(c, i, failFormatTurn(laneContext(c, i, error)), 'failed');
}

/** Every lane still open when the stage's time is up fails with `why`. */
export function laneTimeouts(c: EngineContext, why: string): Step {
  let cur = c;
  const frames: Step['frames'] = [];
  lanesOf(c).forEach((l, i) => {
    if (l.state === 'done' || l.state === 'failed') return;
    const step = laneFailed(cur, i, why);
    cur = { ...cur, ...step.patch };
    frames.push(...step.frames);
  });
  return { patch: { failures: cur.failures, record: cur.record, format: cur.format }, frames };
}

export const lanesFinished = (c: EngineContext) =>
  lanesOf(c).length > 0 && lanesOf(c).every((l) => l.state === 'done' || l.state === 'failed');
export const laneIds = (c: EngineContext) => lanesOf(c).map((_, i) => `lane-${i}`);
/** The stage's time: one turn's time-out for each round of calls made together. */
export const answersTimeoutMs = (c: EngineContext) =>
  c.plan.timing.turnTimeoutMs *
  Math.ceil(Math.max(1, lanesOf(c).length) / Math.max(1, c.plan.timing.parallelAnswers ?? COUNCIL_PARALLEL_ANSWERS));
/** The lanes are over: the format's state forgets them. */
export const closeAnswers = (c: EngineContext): Step => ({
  patch: { format: { ...c.format!, lanes: null } },
  frames: [],
});
