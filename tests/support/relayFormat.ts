import type { FormatDefinition } from '../../server/engine/formats';
import { scriptedOrder } from '../../server/engine/formats/floor';
import type { Slot } from '../../server/engine/formats/state';
import type { FormatOption } from '../../src/model/formats';
import type { FormatKind } from '../../src/schemas/format';

// A fifth format that exists only in the tests, written the way a real one is: one definition for the server, one
// record for the panels. A relay: every agent but the anchor runs one leg in order, then the anchor (the `chair`
// field) carries the others' points to a conclusion. The relay ends itself.

/** Not one of the product's kinds: the type says FormatKind only so the shared records accept it. */
export const RELAY = 'relay' as FormatKind;

export interface RelayPlan {
  kind: 'relay';
  anchor: string;
}

export const relayDefinition: FormatDefinition<RelayPlan> = {
  kind: 'relay',
  plan: (format, ids) => ({ kind: 'relay', anchor: format.chair ?? ids[ids.length - 1] }),
  problem: (_format, ids) => (ids.length < 2 ? 'a relay needs two agents' : null),
  endsItself: true,
  speakers: (_plan, agents) => [...agents],
  script: (f, plan) => [
    ...plan.agents.filter((a) => a.id !== f.anchor).map((a): Slot => ({ agentId: a.id, task: 'speak', stage: 'legs' })),
    { agentId: f.anchor, task: 'speak', stage: 'anchor' },
  ],
  order: (_c, _plan, script, step) => scriptedOrder(script, step),
  givenFloorKeepsStage: true,
  mentionsHandOver: false,
  stages: {
    legs: { title: 'The legs', description: 'Each runner adds one point to the last.' },
    anchor: { title: 'The anchor', description: 'The anchor carries the points home.' },
  },
  hearing: 'everyone',
  answersAtOnce: false,
  speakNote: (_f, _agentId, stage) =>
    stage === 'anchor' ? '\nYou run the last leg: carry the points to a conclusion.' : '\nRun your leg: add one point.',
  personJudges: () => false,
  personGivesFloor: () => false,
};

export const relayOption: FormatOption = {
  kind: RELAY,
  label: 'Relay',
  start: 'Start relay',
  line: (c) => `Every agent runs one leg in order, then the anchor concludes: ${c.agents} messages.`,
  roles: [{ role: 'chair', label: 'Anchor', person: false }],
  note: (value, agents) =>
    `Anchor: ${agents.find((a) => a.id === value.chair)?.name ?? agents.at(-1)?.name ?? 'nobody yet'}`,
  hearsCanvas: false,
  endsItself: true,
  stages: 'legs, anchor',
  send: (f, agentIds) => ({ kind: RELAY, ...(agentIds.includes(f.chair) ? { chair: f.chair } : {}) }),
};
