import { MAX_MENTION_HANDOVERS } from '../../../src/schemas/constants';
import { say, speakerOf, type EngineContext, type Step, type ThinkOutput } from '../context';
import type { EngineFrame } from '../frames';
import * as turn from '../turnFrames';
import type { ChoiceKit } from './definition';
import { nextFloor, nextInOrder, speakersOf } from './floor';
import { mentionsIn } from './mentions';
import { definitionOf } from './registry';
import { roundTable } from './roundTable';
import { initialFormatState, QUIET_TASKS, type FormatState } from './state';

// A format's steps, in the shape every engine step has (a context patch and the frames to send): choosing the
// floor, what a turn or a constrained answer changes, the person's @mention, moderator and judge, the end.

type Patch = Partial<EngineContext>;

/** Applies `first`, then the step `then` makes of the context it left. */
function chain(c: EngineContext, first: Step, then: (c: EngineContext) => Step): Step {
  const next = then({ ...c, ...first.patch });
  return { patch: { ...first.patch, ...next.patch }, frames: [...first.frames, ...next.frames] };
}

export const nameOf = (c: EngineContext, id: string) =>
  id === 'human' ? 'You' : (c.plan.agents.find((a) => a.id === id)?.name ?? id);
export const withState = (c: EngineContext, s: Partial<FormatState>): Patch => ({ format: { ...c.format!, ...s } });

/** The floor: the format's choice, its stage row when a new stage begins, and `floor` before an agent speaks. */
export function chooseFloor(c: EngineContext): Step {
  const fl = nextFloor(c);
  if (fl.kind !== 'turn') return { patch: {}, frames: [] };
  const s = c.format!;
  const f = c.plan.format!;
  const def = definitionOf(f);
  const frames: EngineFrame[] = [];
  let announced = s.announced;
  if (fl.fromScript && fl.slot.stage && fl.slot.stage !== announced) {
    frames.push(...(def.beforeStage?.(c, fl.slot.stage) ?? []));
    const t = def.stages[fl.slot.stage];
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
    // Only an order of the discussion's own (the round table's) gives a speaker reason: it chooses as without a format.
    fl.speakerReason && !s.repair
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

/** A speaking turn is said: the script moves on, the format keeps what it needs, an agent's @mention hands the floor. */
function afterSpeech(c: EngineContext, said: string): Step {
  const s = c.format!;
  const f = c.plan.format!;
  const def = definitionOf(f);
  const cur = s.current;
  const agent = speakerOf(c);
  const content = c.record.turns[c.record.turns.length - 1]?.content ?? said;
  const patch: Partial<FormatState> = { spoken: s.spoken + 1, current: null, repair: null };
  if (cur?.fromScript) patch.step = s.step + 1;
  if (cur) Object.assign(patch, def.afterTurn?.(s, cur, agent, content));
  if (def.mentionsHandOver) {
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

  const kit: ChoiceKit = { raw, agent, done, retry, problem };
  const def = definitionOf(c.plan.format!);
  if (!def.recordChoice) throw new Error(`the ${def.kind} format asked for a '${cur.task}' it cannot read`);
  return def.recordChoice(c, cur, kit);
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
  const ids = c.plan.agents.map((a) => a.id);
  const plan = { ...c.plan, format: roundTable.plan({ kind: roundTable.kind }, ids) };
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

/** A human judge votes (before the opening or after the closing), where the format has one. */
export function humanVote(
  c: EngineContext,
  side: 'for' | 'against',
  confidence: number,
  reason?: string,
  /** The judge's name when a room's participant holds the seat (rooms/): shown instead of the person's. */
  voterName?: string,
): Step {
  const def = definitionOf(c.plan.format!);
  return (
    def.personVote?.(c, { side, confidence, reason, ...(voterName ? { voterName } : {}) }) ?? { patch: {}, frames: [] }
  );
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
  const def = definitionOf(f);
  const script = def.waitStage?.(s) ?? null;
  let announced = s.announced;
  if (fl.waiting === 'judge' && script && script !== announced) {
    frames.push({
      type: 'format_stage',
      format: f.kind,
      stage: script,
      title: def.stages[script]?.title ?? script,
      description: def.stages[script]?.description,
    });
    announced = script;
  }
  if (fl.waiting !== 'answer')
    frames.push({ type: 'format_note', kind: fl.waiting === 'judge' ? 'judge' : 'waiting', text });
  return { patch: withState(c, { waiting: fl.waiting, announced }), frames: say(...frames) };
}

/** The summary a format wrote itself (a council's, naming the chair's answer), if any. */
export const formatSummary = (c: EngineContext) => c.format?.summary ?? null;
