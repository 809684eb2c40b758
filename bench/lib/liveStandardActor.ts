// A standardDiscussion actor for the ingest benches (node and the Chromium feed page): its I/O stubbed, a run
// started and its socket reported open, so every frame sent to it takes the live path.
import { assign, createActor, fromCallback, fromPromise, type AnyActorLogic } from 'xstate';
import { endpointProbeMachine } from '../../src/machines/endpointProbe.machine';
import { standardDiscussionMachine, type StandardDiscussionActorRef } from '../../src/machines/discussionPanel.machine';

export async function liveStandardActor(): Promise<StandardDiscussionActorRef> {
  const logic = standardDiscussionMachine.provide({
    actors: {
      socketSession: fromCallback(() => () => {}) as unknown as AnyActorLogic,
      endpointProbe: endpointProbeMachine.provide({ actors: { probeEndpoint: fromPromise(async () => true) } }),
      loadAgentDetails: fromPromise(async () => []),
      loadSettings: fromPromise(async () => null),
      exportDiscussion: fromPromise(async () => {}),
    } as never,
    actions: { readClock: assign({ clockNow: () => Date.now() }) },
  });
  const actor = createActor(logic, { input: { token: 'bench-token' } }).start();
  await new Promise((r) => setTimeout(r, 0));
  actor.send({ type: 'panel.topic.change', text: 'Drip or furrow irrigation?' });
  actor.send({ type: 'panel.start', agentIds: ['agent-a', 'agent-b', 'agent-c'], connections: [] });
  for (let i = 0; i < 50 && !actor.getSnapshot().matches({ run: 'session' }); i++)
    await new Promise((r) => setTimeout(r, 0));
  actor.send({ type: 'socketSession.open', attempt: 0 });
  if (!actor.getSnapshot().hasTag('live')) throw new Error('the bench actor did not go live');
  return actor as unknown as StandardDiscussionActorRef;
}
