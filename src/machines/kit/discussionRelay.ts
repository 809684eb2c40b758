// What a discussion panel tells the actors beside it while a run goes on: the workspace (the canvas's status looks
// and 'Active speaker') and the shared audio queue. Both panels relay the same way, so the relays are written once,
// as the bodies of `enqueueActions` (the actorKit pattern): each panel wraps them in its own `setup`
// (`relayAgentStatus: enqueueActions(relayAgentStatus)`) and keeps its own context and event types.
// The panels differ only in which frames carry speech: their variants say so (model/speechItems.ts).
import type { ActorSystem, AnyActorRef, EventObject } from 'xstate';
import type { HybridServerFrame } from '../../schemas/hybridSocket';
import type { StandardServerFrame } from '../../schemas/standardSocket';
import { frameOf, framesOf } from '../../model/discussionSocket';
import { optionSlotFromId } from '../../model/positionSelectors';
import { systemActor } from './systemRegistry';

export const agentStatus = (agentId: string, status: string) => ({
  type: 'discussion.agentStatus' as const,
  agentId,
  status,
});
export const statusesReset = () => ({ type: 'discussion.statusesReset' as const });
export const agentPosition = (agentId: string, label: string, slot: number) => ({
  type: 'discussion.agentPosition' as const,
  agentId,
  label,
  slot,
});
export const positionsReset = () => ({ type: 'discussion.positionsReset' as const });

/** Whether a frame says where an agent stands (a turn with an option) or that a new discussion begins. */
const saysPosition = (frame: { type: string; option_id?: unknown }) =>
  frame.type === 'discussion_initialized' ||
  frame.type === 'discussion_started' ||
  ((frame.type === 'agent_message' || frame.type === 'text' || frame.type === 'argument') &&
    typeof frame.option_id === 'string');

/** What the relays read of an event: the frames and audio notices a panel hears (anything else is ignored). */
type Heard =
  | { type: 'socketSession.frame'; frame: StandardServerFrame | HybridServerFrame }
  | { type: 'socketSession.frames'; frames: (StandardServerFrame | HybridServerFrame)[] }
  | { type: 'audio.started' | 'audio.finished'; item: { agentId: string } };

/** The part of `enqueueActions`' argument the relays use. */
interface Relay {
  event: EventObject;
  // biome-ignore lint/suspicious/noExplicitAny: any panel's system: the neighbours are looked up by id
  system: ActorSystem<any>;
  self: AnyActorRef;
  enqueue: { sendTo: (to: AnyActorRef, event: EventObject) => void };
}

const workspaceOf = (system: Relay['system']) => systemActor(system, 'workspace');
const audioQueueOf = (system: Relay['system']) => systemActor(system, 'audioQueue');

/**
 * Whether a frame may have something to relay: a status for the canvas (an agent_status, or a turn that starts
 * streaming), or, with speech on, its audio. Most frames have neither, and a panel's chart relays only when this
 * says so: the relay pass on every frame (an action queue and its helpers each time) doubled the time the ingest
 * bench spent in young-generation collections.
 */
export const mayRelay = (event: EventObject, speechOn: boolean): boolean =>
  framesOf(event as Heard).some((frame) => frameMayRelay(frame, speechOn));

/** Whether one frame may have something to relay (see mayRelay). */
export const frameMayRelay = (frame: { type: string; option_id?: unknown }, speechOn: boolean): boolean =>
  frame.type === 'agent_status' || frame.type === 'agent_message_start' || speechOn || saysPosition(frame);

export function relayAgentStatus({ event, system, enqueue }: Relay): void {
  const frame = frameOf(event as Heard);
  const workspace = workspaceOf(system);
  if (!frame || !workspace) return;
  if (frame.type === 'agent_status') enqueue.sendTo(workspace, agentStatus(frame.agent_id, frame.status));
  // An agent whose turn is streaming holds the floor while it writes; the server's statuses take over after.
  else if (frame.type === 'agent_message_start') enqueue.sendTo(workspace, agentStatus(frame.agent_id, 'responding'));
  // A resumed discussion replays from its start, so its positions come back with it.
  else if (frame.type === 'discussion_initialized' || frame.type === 'discussion_started')
    enqueue.sendTo(workspace, positionsReset());
  else if (
    (frame.type === 'agent_message' || frame.type === 'text' || frame.type === 'argument') &&
    frame.option_id &&
    frame.position
  ) {
    const agentId =
      frame.type === 'argument' ? frame.argument.agent_id : frame.type === 'text' ? frame.from_id : frame.agent_id;
    enqueue.sendTo(workspace, agentPosition(agentId, frame.position, optionSlotFromId(frame.option_id)));
  }
}

/** The agent whose clip plays is the one speaking; it goes idle when its clip is over, however it ended. */
export function relaySpeaking({ event, system, enqueue }: Relay): void {
  const heard = event as Heard;
  const workspace = workspaceOf(system);
  if (!workspace) return;
  if (heard.type === 'audio.started') enqueue.sendTo(workspace, agentStatus(heard.item.agentId, 'speaking'));
  else if (heard.type === 'audio.finished') enqueue.sendTo(workspace, agentStatus(heard.item.agentId, 'idle'));
}

/** A run that is over leaves no agent speaking or responding on the canvas. */
export function resetStatuses({ system, enqueue }: Relay): void {
  const workspace = workspaceOf(system);
  if (workspace) enqueue.sendTo(workspace, statusesReset());
}

/** Stop: 'clear' drops the current clip and the queue; 'interrupt' (hybrid's Interrupt Audio) holds later ones. */
export function tellAudioQueue(
  { system, enqueue }: Relay,
  params: { type: 'audio.clear' | 'audio.interrupt' | 'audio.enable' | 'audio.disable' },
): void {
  const queue = audioQueueOf(system);
  if (queue) enqueue.sendTo(queue, params);
}

/**
 * Speech on: the clip goes to the shared queue, which tells this panel when it starts and ends. The item is the
 * queue's AudioQueueItemInput; each panel checks that with `satisfies`, where both types are in view.
 */
export function queueSpeech({ system, self, enqueue }: Relay, item: { audioId: string } | null): void {
  const queue = audioQueueOf(system);
  const request = { type: 'audio.enqueue', replyTo: self, item };
  if (item && queue) enqueue.sendTo(queue, request);
}
