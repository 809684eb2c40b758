// The small pieces every chart shares, written once:
//   notProvided  — the placeholder body of an actor or action the composition root provides; it throws with the
//                  chart's and the actor's name (a chart run without it fails loudly, never silently does nothing)
//   notifyToasts — ask the actor registered as 'toasts' for a toast (nothing happens when there is none)
//   tellParent   — send an event to the actor that invoked or spawned the chart, named in its input as `parent`
//                  (a chart run on its own has none)
//   TickerInput  — what a chart tells the ticker it invokes to learn the time (services/clock.ts provides it)
//   PanelInput, sessionTokenOf — a discussion panel's token: the session's, read when the panel starts
//   withAttachedSources — a discussion's first frame with the sources ticked in the Sources section
//   tellPanelsOfSources — a source ticked or added during a run: the running panel sends it (sources_add)
// notifyToasts is written as the body of an `enqueueActions`, so each chart wraps it in its own `setup`
// (`notify: enqueueActions(notifyToasts)`) and keeps its own context and event types; tellParent is called from a
// one-line action of the chart's own.
import type { ActorSystem, AnyActorRef, EventObject } from 'xstate';
import { systemActor } from './systemRegistry';
import type { ToastRequest } from '../../model/toastRequest';

/**
 * What a discussion panel is started with: nothing in the app (it reads the signed-in user's token from the session
 * when it starts); a test or a model walk names the token itself.
 */
export interface PanelInput {
  token?: string | null;
}

/** A panel's first context: its own initial context with the token its input names (none: read from the session). */
export const panelContext =
  <C extends { token: string | null }>(initial: C) =>
  ({ input }: { input: PanelInput | undefined }): C => ({ ...initial, token: input?.token ?? null });

/** The signed-in user's token, from the actor registered as 'session'; null when none runs. */
// biome-ignore lint/suspicious/noExplicitAny: any chart's system: the session is looked up by id
export const sessionTokenOf = (system: ActorSystem<any>): string | null =>
  systemActor(system, 'session')?.getSnapshot().context.token ?? null;

/**
 * The first frame of a discussion with the person's sources it reads: those ticked in the Sources section (the
 * actor registered as 'sources') when the socket opens; none when no sources chart runs.
 */
// biome-ignore lint/suspicious/noExplicitAny: any chart's system: the sources chart is looked up by id
export function withAttachedSources<F extends object>(frame: F, system: ActorSystem<any>): F {
  const ids = systemActor(system, 'sources')?.getSnapshot().context.attached ?? [];
  return ids.length ? { ...frame, source_ids: [...ids] } : frame;
}

/** A source ticked or added in the Sources section: a panel whose run is live sends `sources_add`; others ignore it. */
export interface SourcesLiveAddEvent {
  type: 'sources.live.add';
  ids: string[];
}

/** Tells both panels (each hears it only while its socket is open); nothing happens when none runs. */
export function tellPanelsOfSources({ system, enqueue }: Enqueue, ids: string[]): void {
  const event: SourcesLiveAddEvent = { type: 'sources.live.add', ids };
  for (const id of ['standardDiscussion', 'hybridDiscussion'] as const) {
    const panel = systemActor(system, id);
    if (panel) enqueue.sendTo(panel, event);
  }
}

/** The input of a ticker actor (services/clock.ts): how often it tells its parent the time. */
export interface TickerInput {
  intervalMs: number;
}

/** A placeholder actor or action body: `fromPromise(notProvided('workspace', 'loadAgents'))`, `persist: notProvided(…)`. */
export const notProvided = (machine: string, actor: string) => (): never => {
  throw new Error(`${machine}: ${actor} is not provided (the composition root provides it)`);
};

/** Who hears a chart's notices: the actor that invoked or spawned it passes itself (`parent: self`) in the input. */
export interface ParentInput {
  parent?: AnyActorRef;
}

/** The part of `enqueueActions`' argument these actions use. */
interface Enqueue {
  // biome-ignore lint/suspicious/noExplicitAny: any chart's system: the toasts actor is looked up by id
  system: ActorSystem<any>;
  enqueue: { sendTo: (to: AnyActorRef, event: EventObject) => void };
}

export function notifyToasts({ system, enqueue }: Enqueue, params: ToastRequest): void {
  const toasts = systemActor(system, 'toasts');
  if (toasts) enqueue.sendTo(toasts, { type: 'toast.show', ...params });
}

/**
 * The body of a chart's `tellParent` action. The chart writes the one line itself, so its own context type stays
 * its own: `tellParent: enqueueActions(({ context, enqueue }, params: EventObject) => tellParent(context, enqueue, params))`.
 */
export function tellParent(context: ParentInput, enqueue: Enqueue['enqueue'], params: EventObject): void {
  if (context.parent) enqueue.sendTo(context.parent, params);
}
