import { MAX_MENTION_HANDOVERS } from '../../../src/schemas/constants';
import { say, speakerOf, type EngineContext, type Step, type ThinkOutput } from '../context';
import type { EngineFrame } from '../frames';
import * as turn from '../turnFrames';
import { readPick, readRanking, readVote } from './answers';
import { nextFloor } from './floor';
import { formatPlanOf, speakersOf } from './formatPlan';
import { mentionsIn } from './mentions';
import { ballotFor, meanRanks } from './prompts';
import {
  initialFormatState,
  labelOf,
  nextInOrder,
  QUIET_TASKS,
  STAGE_TITLES,
  type FormatState,
  type Vote,
} from './state';

// A format's steps, in the shape every engine step has (a context patch and the frames to send): choosing the
// floor, what a turn or a constrained answer changes, the person's @mention, moderator and judge, the end.

type Patch = Partial<EngineContext>;

/** Applies `first`, then the step `then` makes of the context it left. */
function chain(c: EngineContext, first: Step, then: (c: EngineContext) => Step): Step {
  const next = then({ ...c, ...first.patch });
  return { patch: { ...first.patch, ...next.patch }, frames: [...first.frames, ...next.frames] };
}

const nameOf = (c: EngineContext, id: string) =>
  id === 'human' ? 'You' : (c.plan.agents.find((a) => a.id === id)?.name ?? id);
const withState = (c: EngineContext, s: Partial<FormatState>): Patch => ({ format: { ...c.format!, ...s } });

/** The ranking so far: each answer, its agent and its mean rank, best first. */
export function rankingFrame(c: EngineContext): EngineFrame {
  const s = c.format!;
  const means = meanRanks(s);
  const rows = s.answers
    .map((a) => ({
      label: a.label,
      agent_id: a.agentId,
      agent_name: nameOf(c, a.agentId),
      mean_rank: means[a.label] ?? null,
      ballots: s.ballots.filter((b) => b.order.includes(a.label)).length,
    }))
    .sort((x, y) => (x.mean_rank ?? 99) - (y.mean_rank ?? 99));
  return {
    type: 'ranking',
    rows,
    ballots: s.ballots.map((b) => ({ voter_id: b.voterId, order: b.order, reasons: b.reasons })),
  };
}

/** The floor: the format's choice, its stage row when a new stage begins, and `floor` before an agent speaks. */
export function chooseFloor(c: EngineContext): Step {
  const fl = nextFloor(c);
  if (fl.kind !== 'turn') return { patch: {}, frames: [] };
  const s = c.format!;
  const f = c.plan.format!;
  const frames: EngineFrame[] = [];
  let announced = s.announced;
  if (fl.fromScript && fl.slot.stage && fl.slot.stage !== announced) {
    if (fl.slot.stage === 'synthesis') frames.push(rankingFrame(c));
    const t = STAGE_TITLES[fl.slot.stage];
    frames.push({
      type: 'format_stage',
      format: f.kind,
      stage: fl.slot.stage,
      title: t?.title ?? fl.slot.stage,
      description: t?.description,
    });
    announced = fl.slot.stage;
  }
  const agent = c.plan.agents.find((a) => a.id === fl.slot.agentId) ?? c.plan.agents[0];
  const quiet = QUIET_TASKS.has(fl.slot.task);
  if (!quiet && !s.repair)
    frames.push({ type: 'floor', agent_id: agent.id, agent_name: agent.name, by: fl.by, reason: fl.reason });
  const current = { ...fl.slot, by: fl.by, reason: fl.reason, message: fl.message, fromScript: fl.fromScript };
  const state = { ...s, current, announced, pending: s.repair ? s.pending : null, waiting: null };
  const base =
    fl.speakerReason && f.kind === 'round_table' && !s.repair
      ? turn.chooseSpeaker(c)
      : {
          patch: {
            speakerId: agent.id,
            turn: c.turn + 1,
            delegation: null,
            answering: null,
            speakerReason: 'turn' as const,
            draft: null,
            failure: null,
          },
          frames: say({ type: 'agent_status', agent_id: agent.id, agent_name: agent.name, status: 'thinking' }),
        };
  return { patch: { ...base.patch, format: state }, frames: [...say(...frames), ...base.frames] };
}

const isQuiet = (c: EngineContext) => !!c.format?.current && QUIET_TASKS.has(c.format.current.task);
export const isQuietTask = isQuiet;

/** After a turn or a constrained answer. */
export function recordAnswer(c: EngineContext, out: ThinkOutput): Step {
  if (isQuiet(c)) return recordChoice(c, out);
  return chain(c, turn.recordTurn(c, out), (after) => afterSpeech(after, out.answer.content));
}

/** A speaking turn is said: the script moves on, a council keeps the answer, an agent's @mention hands the floor. */
function afterSpeech(c: EngineContext, said: string): Step {
  const s = c.format!;
  const f = c.plan.format!;
  const cur = s.current;
  const agent = speakerOf(c);
  const content = c.record.turns[c.record.turns.length - 1]?.content ?? said;
  const patch: Partial<FormatState> = { spoken: s.spoken + 1, current: null, repair: null };
  if (cur?.fromScript) patch.step = s.step + 1;
  if (cur?.task === 'answer')
    patch.answers = [...s.answers, { label: labelOf(s.answers.length), agentId: agent.id, text: content }];
  // The chair's answer is the council's answer, and it is in the feed already: the summary points to it rather
  // than printing it a second time word for word.
  if (cur?.task === 'synthesis') patch.summary = councilSummary(agent.name, s.answers.length);
  if (f.kind === 'round_table' || f.kind === 'moderated') {
    const named = mentionsIn(said, c.plan.agents).find(
      (a) => a.id !== agent.id && speakersOf(f, c.plan.agents).includes(a),
    );
    // The floor the person gave while this agent spoke comes first: an agent's @mention does not take it.
    const personQueued = s.pending?.by === 'human';
    if (named && !personQueued && s.handovers < MAX_MENTION_HANDOVERS) {
      patch.pending = { agentId: named.id, by: 'mention', reason: `mentioned by ${agent.name}` };
      patch.handovers = s.handovers + 1;
    } else patch.handovers = 0;
  }
  return { patch: withState(c, patch), frames: [] };
}

/** A moderator's pick, a ranking or a vote: read, asked again once when unreadable, then the format's fallback. */
function recordChoice(c: EngineContext, out: ThinkOutput): Step {
  const s = c.format!;
  const f = c.plan.format!;
  const cur = s.current!;
  const agent = speakerOf(c);
  const raw = out.raw ?? JSON.stringify(out.answer);
  const done = (patch: Partial<FormatState>, ...frames: EngineFrame[]): Step => ({
    patch: {
      ...withState(c, { current: null, repair: null, ...(cur.fromScript ? { step: s.step + 1 } : {}), ...patch }),
      failures: 0,
    },
    frames: say(...frames),
  });
  const retry = (why: string): Step | null =>
    s.repair ? null : { patch: withState(c, { repair: { bad: raw.slice(0, 2000), why } }), frames: [] };
  const problem = (why: string, then: string): EngineFrame => ({
    type: 'error',
    message: `${agent.name}'s answer could not be used (${why}), even when asked again; ${then}.`,
    fatal: false,
  });

  if (cur.task === 'pick') {
    const speakers = speakersOf(f, c.plan.agents);
    const read = readPick(raw, [...speakers.map((a) => a.name), 'ask', 'close']);
    if (!read.ok) {
      const again = retry(read.why);
      if (again) return again;
      const next = nextInOrder(f, c.plan.agents, c.lastSpeakerId);
      return done(
        { pending: { agentId: next.id, by: 'order', reason: 'next in order' } },
        problem(read.why, `the floor goes to ${next.name}, next in order`),
      );
    }
    const { choice, reason } = read.value;
    if (choice === 'close')
      return done(
        { ending: true },
        { type: 'format_note', kind: 'close', text: `Moderator closes the discussion: ${reason}` },
      );
    if (choice === 'ask')
      return done({ waiting: 'answer' }, { type: 'format_note', kind: 'ask', text: `Moderator asks you: ${reason}` });
    const picked = speakers.find((a) => a.name === choice)!;
    return done({ pending: { agentId: picked.id, by: 'moderator', reason } });
  }
  if (cur.task === 'rank') {
    const ballot = ballotFor(s, c.plan, agent.id);
    const read = readRanking(
      raw,
      ballot.map((b) => b.local),
    );
    if (!read.ok) {
      const again = retry(read.why);
      if (again) return again;
      return done({}, problem(read.why, 'its ranking is left out'));
    }
    const global = (local: string) => ballot.find((b) => b.local === local)!.label;
    const reasons = Object.fromEntries(Object.entries(read.value.reasons).map(([k, v]) => [global(k), v]));
    return done({ ballots: [...s.ballots, { voterId: agent.id, order: read.value.order.map(global), reasons }] });
  }
  // A judge's vote.
  const read = readVote(raw);
  if (!read.ok) {
    const again = retry(read.why);
    if (again) return again;
    return done({}, problem(read.why, 'no vote is counted'));
  }
  return castVote(c, { voterId: agent.id, phase: cur.phase ?? 'before', ...read.value }, done);
}

type Done = (patch: Partial<FormatState>, ...frames: EngineFrame[]) => Step;

function castVote(c: EngineContext, vote: Vote, done: Done): Step {
  const s = c.format!;
  const votes = [...s.votes, vote];
  const frames: EngineFrame[] = [
    {
      type: 'vote',
      voter_id: vote.voterId,
      voter_name: nameOf(c, vote.voterId),
      side: vote.side,
      confidence: vote.confidence,
      phase: vote.phase,
      reason: vote.reason,
    },
  ];
  if (vote.phase === 'after') frames.push(debateResult(votes));
  return done({ votes }, ...frames);
}

/** Support for 'For' (0–1) a vote expresses. */
const forSupport = (v: Vote) => (v.side === 'for' ? v.confidence : 1 - v.confidence);

export function debateResult(votes: Vote[]): EngineFrame {
  const mean = (vs: Vote[]) => (vs.length ? vs.reduce((t, v) => t + forSupport(v), 0) / vs.length : 0.5);
  const before = Math.round(mean(votes.filter((v) => v.phase === 'before')) * 100);
  const after = Math.round(mean(votes.filter((v) => v.phase === 'after')) * 100);
  const change = after - before;
  const side = change > 0 ? 'for' : change < 0 ? 'against' : null;
  const text = side
    ? `${side === 'for' ? 'For' : 'Against'} gained ${Math.abs(change)} points of the judge's support (For ${before} % before, ${after} % after).`
    : `The judge's support did not move (For ${before} % before and after).`;
  return { type: 'debate_result', side, change, for_before: before, for_after: after, text };
}

/** A failed turn: the script moves on; a moderator that failed hands the floor to the next in order. */
export function failFormatTurn(c: EngineContext): Step {
  const cur = c.format?.current;
  return chain(c, turn.failTurn(c), (after) => {
    const s = after.format!;
    const patch: Partial<FormatState> = {
      current: null,
      repair: null,
      ...(cur?.fromScript ? { step: s.step + 1 } : {}),
    };
    if (cur?.task === 'pick') {
      const next = nextInOrder(after.plan.format!, after.plan.agents, c.lastSpeakerId);
      patch.pending = { agentId: next.id, by: 'order', reason: 'next in order' };
    } else if (cur && !QUIET_TASKS.has(cur.task)) patch.spoken = s.spoken + 1;
    return { patch: withState(after, patch), frames: [] };
  });
}

/** A person's message: an @mention gives that agent the next turn, its prompt putting the message first. */
export function noteFormatHuman(c: EngineContext, text: string): Step {
  return chain(c, turn.noteHuman(c, text), (after) => {
    const s = after.format!;
    const f = after.plan.format!;
    const named = mentionsIn(text, after.plan.agents).find((a) => speakersOf(f, after.plan.agents).includes(a));
    const patch: Partial<FormatState> = { waiting: s.waiting === 'answer' ? null : s.waiting };
    const frames: EngineFrame[] = [];
    if (named) {
      Object.assign(patch, {
        pending: { agentId: named.id, by: 'mention', reason: 'mentioned by you', message: text },
        handovers: 0,
      });
      const queued = s.pending?.by === 'human' ? s.pending.agentId : null;
      if (queued && queued !== named.id)
        frames.push({
          type: 'floor_queue',
          change: 'overridden',
          agent_id: null,
          text: `Your @mention gives ${named.name} the next turn instead of ${nameOf(after, queued)}.`,
        });
    }
    return { patch: withState(after, patch), frames: say(...frames) };
  });
}

/**
 * A person's message in any discussion. Sent with no format, a discussion keeps today's behaviour until the person
 * @mentions an agent: from then on it follows the round table's floor rules (a floor frame before each turn, @mention
 * hand-overs), so the named agent speaks next. A message naming nobody changes nothing.
 */
export function noteHumanMessage(c: EngineContext, text: string): Step {
  if (c.format) return noteFormatHuman(c, text);
  if (mentionsIn(text, c.plan.agents).length === 0) return turn.noteHuman(c, text);
  const plan = { ...c.plan, format: formatPlanOf({ kind: 'round_table' }, c.plan.agents) };
  const step = noteFormatHuman({ ...c, plan, format: initialFormatState() }, text);
  return { patch: { plan, ...step.patch }, frames: step.frames };
}

/** A human moderator gives the floor. */
export function giveFloor(c: EngineContext, agentId: string): Step {
  const agent = c.plan.agents.find((a) => a.id === agentId);
  if (!agent) return { patch: {}, frames: [] };
  return {
    patch: withState(c, { pending: { agentId, by: 'human', reason: 'given the floor by you' }, handovers: 0 }),
    frames: [],
  };
}

/** The person gives the floor while an agent speaks: the agent is queued for the next turn, and the panels see it. */
export function queueFloor(c: EngineContext, agentId: string): Step {
  const given = giveFloor(c, agentId);
  const name = nameOf(c, agentId);
  return {
    patch: given.patch,
    frames: say({
      type: 'floor_queue',
      change: 'queued',
      agent_id: agentId,
      agent_name: name,
      text: `${name} speaks next.`,
    }),
  };
}

/** The person takes back the floor they gave; nothing changes when none is queued. */
export function cancelFloor(c: EngineContext): Step {
  const queued = c.format?.pending?.by === 'human' ? c.format.pending.agentId : null;
  if (!queued) return { patch: {}, frames: [] };
  return {
    patch: withState(c, { pending: null }),
    frames: say({
      type: 'floor_queue',
      change: 'cancelled',
      agent_id: null,
      text: `You took back the floor you gave ${nameOf(c, queued)}.`,
    }),
  };
}

/** A human judge votes (before the opening or after the closing). */
export function humanVote(c: EngineContext, side: 'for' | 'against', confidence: number, reason?: string): Step {
  const s = c.format!;
  const phase = s.votes.some((v) => v.phase === 'before') ? 'after' : 'before';
  const done: Done = (patch, ...frames) => ({
    patch: withState(c, { step: s.step + 1, ...patch }),
    frames: say(...frames),
  });
  // No reason given is an empty reason: the row then says the vote alone (no placeholder words).
  return castVote(c, { voterId: 'human', side, confidence, phase, reason: reason?.trim() ?? '' }, done);
}

/** 'End discussion': the format stops at the next choice of the floor, and the summary is written. */
export const endByPerson = (c: EngineContext): Step => ({
  patch: withState(c, { ending: true, waiting: null }),
  frames: [],
});

/** The format waits for the person: said once per wait. */
export function noteWait(c: EngineContext): Step {
  const fl = nextFloor(c);
  if (fl.kind !== 'wait' || c.format?.waiting === fl.waiting) return { patch: {}, frames: [] };
  const text =
    fl.waiting === 'floor'
      ? 'Waiting for you to give the floor: choose who speaks, or @mention an agent.'
      : fl.waiting === 'judge'
        ? `Waiting for your vote as judge ${c.format!.votes.length ? 'after the debate' : 'before the debate'}: For or Against, with your confidence.`
        : 'Waiting for your answer to the moderator.';
  const frames: EngineFrame[] = [];
  const s = c.format!;
  const f = c.plan.format!;
  const script = f.kind === 'debate' ? (s.step === 0 ? 'vote_before' : 'vote_after') : null;
  let announced = s.announced;
  if (fl.waiting === 'judge' && script && script !== announced) {
    frames.push({
      type: 'format_stage',
      format: f.kind,
      stage: script,
      title: STAGE_TITLES[script].title,
      description: STAGE_TITLES[script].description,
    });
    announced = script;
  }
  if (fl.waiting !== 'answer')
    frames.push({ type: 'format_note', kind: fl.waiting === 'judge' ? 'judge' : 'waiting', text });
  return { patch: withState(c, { waiting: fl.waiting, announced }), frames: say(...frames) };
}

/** A council's summary: who gave the answer, from how many, where to read it. */
export const councilSummary = (chair: string, answers: number) =>
  `${chair}, as chair, weighed the council's ${answers} answer${answers === 1 ? '' : 's'} and their ranking and gave the council's answer above.`;

/** The summary a format wrote itself (a council's, naming the chair's answer), if any. */
export const formatSummary = (c: EngineContext) => c.format?.summary ?? null;
