// The address bar follows the charts (README 'The shell'; docs/architecture.md 'Addresses follow the charts').
// The charts stay the source of truth: History, the replay and the Evaluate dialog each report the view they now
// show (`nav.follow`), and this chart writes its address — a new entry when the view changes, the same entry
// replaced when only its state does (History's filter, the replay's turn). The other way, an address that arrives
// (the first one after sign-in, Back, Forward) is applied: the charts are asked to show it, and the chart waits
// until they report that view, a chart says the id is unknown to it (→ notFound), or APPLY_TIMEOUT_MS passes.
//   arriving  — the address adapter has not yet said where the page is
//   applying  — the charts were asked to show `address`; their reports are waited for, not written
//   following — the address follows what the charts report
//   notFound  — the address names nothing of this user's: the shell shows 'not found' with a way to the canvas
//   outside   — a share or invite link: a page of its own (the shell shows it)
// The History API itself is the `address` actor (services/addressBar.ts): it writes and reports, nothing more.
import { assign, enqueueActions, fromCallback, sendTo, setup, type ActorRefFrom, type SnapshotFrom } from 'xstate';
import { CANVAS, formatAddress, sameAddress, sameView, type Route } from '../model/address';
import { notProvided } from './kit/actorKit';
import { systemActor } from './kit/systemRegistry';

/** How long the charts may take to show an address (a stored discussion loads over HTTP) before it is given up. */
export const APPLY_TIMEOUT_MS = 15_000;

export type NavigationEvent =
  /** The address adapter: the page's address at start. */
  | { type: 'nav.arrived'; route: Route }
  /** The address adapter: Back or Forward moved to this address. */
  | { type: 'nav.popped'; route: Route }
  /** A chart: the view it now shows. */
  | { type: 'nav.follow'; route: Route }
  /** A chart: the id the address names is unknown to this user (or not theirs). */
  | { type: 'nav.missing' }
  /** The not-found page's 'Back to the canvas'. */
  | { type: 'nav.home' };

/** What the navigation chart asks the address adapter to do. */
export type AddressCommand = { type: 'address.write'; path: string; mode: 'push' | 'replace' };

export interface NavigationContext {
  /** The route the address holds (or, while applying, is being shown). */
  address: Route;
  /** The route the charts last reported. */
  shown: Route;
}

/** Ask the charts to show a route. Each chart has one event for it; a chart that does not run ignores it. */
// biome-ignore lint/suspicious/noExplicitAny: any chart's system: its neighbours are looked up by id
function showRoute(system: any, route: Route) {
  const history = systemActor(system, 'history');
  const evaluation = systemActor(system, 'evaluation');
  if (route.kind !== 'evaluation') evaluation?.send({ type: 'evaluation.close' });
  // History is drawn by the discussion panel: a panel hidden to its edge tab comes back for it.
  if (route.kind === 'history' || route.kind === 'discussion' || route.kind === 'replay')
    systemActor(system, 'app')?.send({ type: 'view.panel.show' });
  switch (route.kind) {
    case 'history':
      history?.send({ type: 'history.list', format: route.format, q: route.q });
      return;
    case 'discussion':
      history?.send({ type: 'history.visit', id: route.id, replay: false, turn: null });
      return;
    case 'replay':
      history?.send({ type: 'history.visit', id: route.id, replay: true, turn: route.turn });
      return;
    case 'evaluation':
      history?.send({ type: 'history.hide' });
      evaluation?.send({ type: 'evaluation.visit', id: route.id });
      return;
    case 'join':
      // An invite: the join chart accepts it and attaches the panel (its page is drawn over the canvas).
      history?.send({ type: 'history.hide' });
      systemActor(system, 'join')?.send({ type: 'join.open', token: route.token });
      return;
    default:
      // The canvas, and the pages drawn over it (not found, a share link): nothing else open.
      history?.send({ type: 'history.hide' });
  }
}

export const navigationMachine = setup({
  types: {
    context: {} as NavigationContext,
    events: {} as NavigationEvent,
    tags: {} as 'notFound' | 'outside',
    children: {} as { address: 'address' },
  },
  actors: {
    /** The History API (services/addressBar.ts): reports the address at start and on popstate; writes on command. */
    address: fromCallback<AddressCommand>(notProvided('navigation', 'address')),
  },
  delays: { APPLY_TIMEOUT_MS },
  guards: {
    isOutside: ({ context }) => context.address.kind === 'share' || context.address.kind === 'join',
    isUnknown: ({ context }) => context.address.kind === 'notFound',
    isShown: ({ context }) => sameAddress(context.address, context.shown),
    changesView: ({ context, event }) =>
      event.type === 'nav.follow' &&
      !sameAddress(event.route, context.address) &&
      !sameView(event.route, context.address),
    changesState: ({ context, event }) => event.type === 'nav.follow' && !sameAddress(event.route, context.address),
  },
  actions: {
    setAddress: assign({
      address: ({ event }) => (event.type === 'nav.arrived' || event.type === 'nav.popped' ? event.route : CANVAS),
    }),
    setShown: assign({ shown: ({ context, event }) => (event.type === 'nav.follow' ? event.route : context.shown) }),
    /** What the charts show becomes the address: the view they report, or the one an apply ended on. */
    adoptShown: assign({ address: ({ context }) => context.shown }),
    showAddress: enqueueActions(({ context, system }) => showRoute(system, context.address)),
    push: sendTo(
      'address',
      ({ context }): AddressCommand => ({
        type: 'address.write',
        path: formatAddress(context.address),
        mode: 'push',
      }),
    ),
    replace: sendTo(
      'address',
      ({ context }): AddressCommand => ({
        type: 'address.write',
        path: formatAddress(context.address),
        mode: 'replace',
      }),
    ),
  },
}).createMachine({
  id: 'navigation',
  context: { address: CANVAS, shown: CANVAS },
  invoke: { src: 'address', id: 'address' },
  initial: 'arriving',
  on: {
    'nav.popped': { target: '.applying', reenter: true, actions: 'setAddress' },
  },
  states: {
    arriving: {
      on: { 'nav.arrived': { target: 'applying', actions: 'setAddress' } },
    },
    applying: {
      entry: 'showAddress',
      always: [
        { guard: 'isUnknown', target: 'notFound' },
        { guard: 'isOutside', target: 'outside' },
        { guard: 'isShown', target: 'following' },
      ],
      on: {
        // Reports on the way there (History's list before the discussion it opens) are not written.
        'nav.follow': { actions: 'setShown' },
        'nav.missing': 'notFound',
      },
      // The charts did not get there (a load that failed for another reason): the address says what they show.
      after: { APPLY_TIMEOUT_MS: { target: 'following', actions: ['adoptShown', 'replace'] } },
    },
    following: {
      on: {
        'nav.follow': [
          { guard: 'changesView', actions: ['setShown', 'adoptShown', 'push'] },
          { guard: 'changesState', actions: ['setShown', 'adoptShown', 'replace'] },
          { actions: 'setShown' },
        ],
      },
    },
    notFound: {
      tags: 'notFound',
      on: {
        'nav.follow': { actions: 'setShown' },
        'nav.home': { target: 'applying', actions: ['setAddress', 'push'] },
      },
    },
    outside: {
      tags: 'outside',
      on: {
        'nav.follow': { actions: 'setShown' },
        'nav.home': { target: 'applying', actions: ['setAddress', 'push'] },
      },
    },
  },
});

/**
 * The route the shell draws its 'not found' page for; null when the app's own views show. A share link's page has a
 * root of its own (main.tsx mounts it before any session); an invite's is drawn by the join chart over the canvas.
 */
export const selectAddressPage = (s: NavigationSnapshot): Route | null =>
  s.hasTag('notFound') ? s.context.address : null;

export type NavigationActorRef = ActorRefFrom<typeof navigationMachine>;
export type NavigationSnapshot = SnapshotFrom<typeof navigationMachine>;

declare module './kit/systemRegistry' {
  interface SystemActors {
    navigation: ActorRefFrom<typeof navigationMachine>;
  }
}
