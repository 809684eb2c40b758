// How a chart tells the navigation actor (navigation.machine.ts) which view it now shows, or that the id an address
// named is unknown to it. Nothing happens when no navigation actor runs (a chart tested on its own).
import type { ActorSystem } from 'xstate';
import type { Route } from '../../model/address';
import { systemActor } from './systemRegistry';

// biome-ignore lint/suspicious/noExplicitAny: any chart's system: the navigation actor is looked up by id
export const reportRoute = (system: ActorSystem<any>, route: Route) =>
  systemActor(system, 'navigation')?.send({ type: 'nav.follow', route });

// biome-ignore lint/suspicious/noExplicitAny: any chart's system: the navigation actor is looked up by id
export const reportMissing = (system: ActorSystem<any>) =>
  systemActor(system, 'navigation')?.send({ type: 'nav.missing' });

/** An HTTP refusal that means 'no such thing for you' (404, 403, 400, 422), not a failure to answer. */
export const isMissing = (error: unknown) => {
  const status = typeof error === 'object' && error !== null ? (error as { status?: unknown }).status : undefined;
  return status === 404 || status === 403 || status === 400 || status === 422;
};
