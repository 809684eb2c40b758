// A hybridDiscussion actor for the ingest benches: its I/O stubbed, a run started and its socket reported open,
// so every frame sent to it takes the live path (the same as the Chromium replay page, without the panel).
import { assign, createActor, fromCallback, fromPromise, type AnyActorLogic } from 'xstate';
import { hybridDiscussionMachine, type HybridDiscussionActorRef } from '../../src/machines/discussionPanel.machine';

export function liveHybridActor(): HybridDiscussionActorRef {
  const logic = hybridDiscussionMachine.provide({
    actors: {
      socketSession: fromCallback(() => () => {}) as unknown as AnyActorLogic,
      clock: fromCallback(() => undefined),
      loadModes: fromPromise(async () => []),
      loadSettings: fromPromise(async () => null),
    } as never,
    actions: { readClock: assign({ clockNow: () => Date.now() }) },
  });
  const actor = createActor(logic, { input: { token: 'bench-token' } }).start();
  actor.send({ type: 'panel.topic.change', text: 'Drip or furrow irrigation?' });
  actor.send({ type: 'panel.start', agentIds: ['agent-a', 'agent-b', 'agent-c'] });
  actor.send({ type: 'socketSession.open', attempt: 0 });
  if (!actor.getSnapshot().hasTag('live')) throw new Error('the bench hybrid actor did not go live');
  return actor;
}
