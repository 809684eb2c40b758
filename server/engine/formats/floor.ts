import type { EngineContext } from '../context';
import type { AgentRef, Plan } from '../plan';
import { nextSpeaker, type SpeakerReason } from '../speakers';
import type { Floor } from './definition';
import type { FormatPlan } from './formatPlan';
import { definitionOf } from './registry';
import type { FormatTask, Slot } from './state';

export type { Floor } from './definition';

/** Who speaks next by the discussion's own order (delegation, address, mode), from where the context stands. */
export const orderedSpeaker = (c: EngineContext) =>
  nextSpeaker(c.plan, c.record, {
    turnInStage: c.turnInStage,
    lastSpeakerId: c.lastSpeakerId,
    prevSpeakerId: c.prevSpeakerId,
    delegateId: c.delegation?.toId ?? null,
    lastAddressedTo: c.lastAddressedTo,
    lastPicked: c.lastPicked,
  });

// The floor policy of every format, one pure function of the engine's context: who speaks (or is asked for a
// choice) next and why, or that the format waits for the person, or that it is over. In order:
//   the person ended it → end; a constrained answer to repair → the same slot again; the moderator asked the
//   person → wait; a promised floor (a person's or an agent's @mention, the moderator's pick, the person giving
//   it) → that agent; then the format's own order.

export const ORDER_REASONS: Record<SpeakerReason, string> = {
  turn: 'next in order',
  delegation: 'handed a task',
  interrupt: 'interrupts to disagree',
  addressed: 'addressed by the last speaker',
  picked: 'picked by the last speaker',
};

const speak = (agentId: string, stage: string | null = null): Slot => ({ agentId, task: 'speak' as FormatTask, stage });

export function nextFloor(c: EngineContext): Floor {
  const f = c.plan.format;
  const s = c.format;
  if (!f || !s) return { kind: 'end' };
  if (s.ending) return { kind: 'end' };
  if (s.repair && s.current)
    return {
      kind: 'turn',
      slot: s.current,
      by: s.current.by,
      reason: s.current.reason,
      message: s.current.message,
      fromScript: s.current.fromScript ?? false,
    };
  if (s.waiting === 'answer') return { kind: 'wait', waiting: 'answer' };
  const script = scriptOf(f, c.plan);
  const stage = script[Math.min(s.step, script.length - 1)]?.stage ?? null;
  if (s.pending) {
    const p = s.pending;
    return {
      kind: 'turn',
      slot: speak(p.agentId, definitionOf(f).givenFloorKeepsStage ? stage : null),
      by: p.by,
      reason: p.reason,
      message: p.message,
      fromScript: false,
    };
  }
  return definitionOf(f).order(c, f, script, s.step);
}

/** A council's or a debate's whole script, in order; empty where the floor is chosen as it goes. */
export const scriptOf = (f: FormatPlan, plan: Plan): Slot[] => definitionOf(f).script(f, plan);

/** The next slot of a script: an agent's turn, the person's vote (a human judge), or the end. */
export function scriptedOrder(script: Slot[], step: number): Floor {
  const slot = script[step];
  if (!slot) return { kind: 'end' };
  if (slot.agentId === 'human') return { kind: 'wait', waiting: 'judge' };
  return { kind: 'turn', slot, by: 'order', reason: 'next in order', fromScript: true };
}

export const formatWaits = (c: EngineContext) => c.plan.format !== null && nextFloor(c).kind === 'wait';
export const formatEnds = (c: EngineContext) =>
  c.plan.format !== null && definitionOf(c.plan.format).endsItself && nextFloor(c).kind === 'end';
/** The person ended a round table discussion. */
export const formatEndedByPerson = (c: EngineContext) => c.format?.ending === true;

/** The agents who speak in turn: everyone but an agent moderator or judge (a debate: its two sides). */
export const speakersOf = (f: FormatPlan, agents: readonly AgentRef[]): AgentRef[] =>
  definitionOf(f).speakers(f, agents);

/** The agent who speaks after `lastId` in the format's order. */
export function nextInOrder(f: FormatPlan, agents: readonly AgentRef[], lastId: string | null): AgentRef {
  const speakers = speakersOf(f, agents);
  const i = speakers.findIndex((a) => a.id === lastId);
  return speakers[(i + 1) % speakers.length] ?? agents[0];
}
