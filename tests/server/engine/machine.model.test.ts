import { describe, expect, it } from 'vitest';
import { createActor, fromPromise, type SnapshotFrom } from 'xstate';
import { TestModel } from 'xstate/graph';
import { standardServerFrame } from '../../../src/schemas/standardSocket';
import { discussionMachine, type DiscussionMachine } from '../../../server/engine/discussion.machine';
import { orderProblems } from './frameOrder';
import { answer, plans } from './machineKit';

// Model-based paths over stages and rounds. The graph walks the pure machine, feeding the events its actors would
// produce (a model's answer, a failure, speech done, an acknowledgment, a stop); each path found is then replayed
// on a live actor whose real actors never answer on their own, and the frames it emits are checked.

type Snap = SnapshotFrom<DiscussionMachine>;
type Ev = { type: string; [k: string]: unknown };

const LONG = { turnTimeoutMs: 1e9, ackTimeoutMs: 1e9, maxConsecutiveFailures: 2 };
const plan = plans.multi(
  { reasoning_config: { maxRounds: 2, stages: ['brainstorming', 'consensus'], convergenceThreshold: 0.8 } },
  2,
  LONG,
);
const input = { plan, speechAvailable: false, researchAvailable: false };

const support = {
  type: 'think.done',
  output: { answer: answer({ stance: 'support', confidence: 0.9 }), modelMs: 1, answeredAt: 0 },
};
const oppose = {
  type: 'think.done',
  output: {
    answer: answer({ stance: 'oppose', confidence: 0.9, argument_type: 'counter' }),
    modelMs: 1,
    answeredAt: 0,
  },
};
const failure = { type: 'think.failed', error: 'model down' };
const stop = { type: 'stop', reason: 'stopped' };
const human = { type: 'human.message', text: 'Consider water.' };

// The summary is streamed like a turn: its actor answers with the same think events.
const summary = {
  type: 'think.done',
  output: { answer: answer({ content: 'They talked.', stance: 'neutral' }), modelMs: 1, answeredAt: 0 },
};
const summaryFailure = { type: 'think.failed', error: 'model down' };

const eventsFor = (s: Snap): Ev[] =>
  s.status === 'done'
    ? []
    : s.matches({ running: 'thinking' })
      ? [support, oppose, failure, stop]
      : s.matches('summarizing')
        ? [summary, summaryFailure, stop]
        : [stop, human];

/** The parts of the context that change what happens next: position in the plan, failures, stances. */
const serializeState = (s: Snap) =>
  JSON.stringify([
    s.value,
    s.status,
    s.context.round,
    s.context.stageIndex,
    s.context.turnInStage,
    s.context.failures,
    Object.values(s.context.record.positions)
      .map((p) => `${p.agentId}:${p.stance}`)
      .sort(),
  ]);

// TestModel's generics cannot name the machine's own snapshot type, hence the casts at this one boundary.
const model = new TestModel<Snap, Ev, typeof input>(discussionMachine as never, {
  input,
  events: eventsFor,
  serializeState,
});

function replay(events: Ev[]) {
  const never = fromPromise(() => new Promise<never>(() => {})) as never;
  const actor = createActor(
    discussionMachine.provide({ actors: { think: never, summarize: never, speak: never, research: never } }),
    { input },
  );
  const frames: any[] = [];
  actor.on('frame', (e) => frames.push(e.frame));
  actor.start();
  for (const e of events) actor.send(e as never);
  return { actor, frames };
}

describe('discussion machine, model-based', () => {
  it('reaches every stage of both rounds, summarizing, ended, failed and stopped', () => {
    const paths = model.getShortestPaths({ allowDuplicatePaths: true });
    const reached = new Set(paths.map((p) => JSON.stringify(p.state.value)));
    for (const v of ['{"running":{"thinking":"working"}}', '"summarizing"', '"ended"', '"failed"', '"stopped"'])
      expect(reached).toContain(v);
    const stagesReached = new Set(
      paths
        .filter((p) => p.state.matches({ running: 'thinking' }))
        .map((p) => `${p.state.context.round}:${p.state.context.stageIndex}`),
    );
    expect([...stagesReached].sort()).toEqual(['1:0', '1:1', '2:0', '2:1']);
  });

  it('every shortest path, replayed live, emits schema-valid frames in a valid order', () => {
    const paths = model.getShortestPaths();
    expect(paths.length).toBeGreaterThan(30);
    for (const path of paths) {
      const events = path.steps.map((s) => s.event as Ev).filter((e) => e.type !== 'xstate.init');
      const { actor, frames } = replay(events);
      const snap = actor.getSnapshot();
      expect(snap.value, path.description).toEqual(path.state.value);
      for (const f of frames) expect(standardServerFrame.safeParse(f).success, JSON.stringify(f)).toBe(true);
      if (snap.status === 'done') {
        expect(orderProblems(frames), path.description).toEqual([]);
      }
      actor.stop();
    }
  });

  it('every simple path to the end respects the round limit and ends with one discussion_ended', () => {
    // Answers only (no stops, failures or human messages), so the simple paths stay few: every mix of stances.
    const answersOnly = (s: Snap): Ev[] =>
      s.matches({ running: 'thinking' }) ? [support, oppose] : s.matches('summarizing') ? [summary] : [];
    const paths = model.getSimplePaths({ events: answersOnly as never, toState: (s) => s.status === 'done' });
    expect(paths.length).toBeGreaterThan(10);
    for (const path of paths) {
      const { frames } = replay(path.steps.map((s) => s.event as Ev).filter((e) => e.type !== 'xstate.init'));
      const rounds = frames.filter((f) => f.type === 'round_start').length;
      expect(rounds).toBeLessThanOrEqual(2);
      const end = frames.at(-1);
      expect(end.type).toBe('discussion_ended');
      // Only a converged table stops before the last round.
      if (rounds === 1) expect(end.reason).toBe('consensus');
      if (end.reason === 'consensus') expect(frames.find((f) => f.type === 'consensus_reached').reached).toBe(true);
    }
  });
});
