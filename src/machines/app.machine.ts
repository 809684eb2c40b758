// The root actor (docs/architecture.md#the-actor-tree). It spawns the session and the toasts for the life of
// the page; while a user is signed in — once the signed-in chunk has loaded — it runs the workspace, the model
// connections, the Evaluate dialog, the live updates, the audio queue, the discussion panels and their History (all
// stopped at logout, so nothing of one user outlives their session). The sign-in screen carries none of their code. It also holds the main screen's view state:
//   discussionView — standard | hybrid (Switch to Hybrid / Switch to Standard, the Hybrid Mode badge)
//   panel          — shown | hidden (Show/Hide Discussion)
//   devPanel       — closed | debug | tester (the development-only Debug and Test buttons)
//   connectionTest — idle | testing (the top bar's connection Test: probes /health and says so in a toast)
import {
  enqueueActions,
  fromPromise,
  setup,
  spawnChild,
  stopChild,
  type ActorRefFrom,
  type AnyActorLogic,
  type SnapshotFrom,
} from 'xstate';
import { SHELL_MESSAGES } from '../schemas/messages';
import type { Health } from '../schemas/system';
import { sessionMachine, type SessionNotice } from './session.machine';
import { toastsMachine } from './toasts.machine';
import { notProvided, notifyToasts } from './kit/actorKit';

/** The logic of the actors spawned once the signed-in chunk has loaded (systemIds as the keys say). */
export interface LiveLogic {
  /** The canvas's agents and connections (workspace.machine.ts). */
  workspace: AnyActorLogic;
  /** The user's model connections and the Models dialog (models.machine.ts). */
  models: AnyActorLogic;
  /** The Evaluate dialog: a panel against one model at equal tokens (evaluation.machine.ts). */
  evaluation: AnyActorLogic;
  liveUpdates: AnyActorLogic;
  audioQueue: AnyActorLogic;
  /** The person's documents the agents read and cite (sources.machine.ts). */
  sources: AnyActorLogic;
  standardDiscussion: AnyActorLogic;
  hybridDiscussion: AnyActorLogic;
  history: AnyActorLogic;
  /** 'Save as panel', the Panels dialog and the API tokens dialog (panelSave, panels, apiTokens machines). */
  panelSave: AnyActorLogic;
  panels: AnyActorLogic;
  apiTokens: AnyActorLogic;
  /** The room's dialogs: the display name, Invite, and the /join page (profile, invite, join machines). */
  profile: AnyActorLogic;
  invite: AnyActorLogic;
  join: AnyActorLogic;
  /** The address bar follows the views, and Back, Forward and a reload drive them (navigation.machine.ts). */
  navigation: AnyActorLogic;
}
/**
 * The systemIds (and child ids) of those actors, in spawn order: the workspace and the models before the live
 * updates, so the first live frame already finds them; the queue before the panels that use it.
 */
export const LIVE_ACTOR_IDS = [
  'workspace',
  'models',
  'evaluation',
  'liveUpdates',
  'audioQueue',
  'sources',
  'standardDiscussion',
  'hybridDiscussion',
  'history',
  'panelSave',
  'panels',
  'apiTokens',
  'profile',
  'invite',
  // An accepted invite finds both panels and the app to tell.
  'join',
  // Last: the address it reads at start is applied to the charts above, which must already run.
  'navigation',
] as const;

export type AppEvent =
  | SessionNotice
  | { type: 'view.discussion.toggle' }
  /** History re-attached a discussion: show the panel that runs it. */
  | { type: 'view.discussion.show'; panel: 'standard' | 'hybrid' }
  | { type: 'view.panel.toggle' }
  /** An address names a view of the panel (History, a stored discussion): a hidden panel comes back to show it. */
  | { type: 'view.panel.show' }
  | { type: 'view.debug.toggle' }
  | { type: 'view.tester.toggle' }
  | { type: 'connection.test' };

/** A /health answer that did not say 'healthy', or a non-2xx, is a failed test; no answer at all is an error. */
const answeredAtAll = (error: unknown) =>
  typeof error === 'object' && error !== null && typeof (error as { status?: unknown }).status === 'number';

export const appMachine = setup({
  types: {
    events: {} as AppEvent,
    children: {} as {
      session: 'session';
      toasts: 'toasts';
      liveLoader: 'loadLiveLogic';
      connectionProbe: 'probeHealth';
    },
  },
  actors: {
    session: sessionMachine,
    toasts: toastsMachine,
    /**
     * The workspace, the models, the evaluation, the live updates, the audio queue and both discussion panels,
     * provided with their services. Loaded after sign-in as a chunk of its own, so the sign-in screen carries none
     * of their code.
     */
    loadLiveLogic: fromPromise<LiveLogic>(notProvided('app', 'loadLiveLogic')),
    probeHealth: fromPromise<Health>(notProvided('app', 'probeHealth')),
  },
  guards: {
    isHealthy: (_, params: { health: Health }) => params.health.status === 'healthy',
  },
  actions: {
    spawnLiveActors: enqueueActions(({ enqueue }, params: { logic: LiveLogic }) => {
      // The children map types actors by a src name; these arrive as logic from the lazy chunk, so their ids are
      // not in it (app.selectors.ts types them for the views).
      for (const id of LIVE_ACTOR_IDS) enqueue.spawnChild(params.logic[id], { id: id as never, systemId: id });
    }),
    stopLiveActors: enqueueActions(({ enqueue }) => {
      for (const id of LIVE_ACTOR_IDS) enqueue(stopChild(id));
    }),
    notify: enqueueActions(notifyToasts),
  },
}).createMachine({
  id: 'app',
  type: 'parallel',
  // Toasts first: the session may want to say something as soon as it starts.
  entry: [
    spawnChild('toasts', { id: 'toasts', systemId: 'toasts' }),
    spawnChild('session', { id: 'session', systemId: 'session', input: ({ self }) => ({ parent: self }) }),
  ],
  states: {
    auth: {
      initial: 'signedOut',
      states: {
        signedOut: { on: { 'session.signedIn': 'signedIn' } },
        signedIn: {
          initial: 'loadingLive',
          states: {
            loadingLive: {
              invoke: {
                src: 'loadLiveLogic',
                id: 'liveLoader',
                onDone: {
                  target: 'ready',
                  actions: { type: 'spawnLiveActors', params: ({ event }) => ({ logic: event.output }) },
                },
                onError: {
                  target: 'ready',
                  actions: { type: 'notify', params: { kind: 'error', text: SHELL_MESSAGES.discussionLoadFailed } },
                },
              },
            },
            ready: {},
          },
          exit: 'stopLiveActors',
          on: { 'session.signedOut': 'signedOut' },
        },
      },
    },
    discussionView: {
      initial: 'standard',
      states: {
        standard: {
          on: {
            'view.discussion.toggle': 'hybrid',
            'view.discussion.show': { guard: ({ event }) => event.panel === 'hybrid', target: 'hybrid' },
          },
        },
        hybrid: {
          tags: 'hybridMode',
          on: {
            'view.discussion.toggle': 'standard',
            'view.discussion.show': { guard: ({ event }) => event.panel === 'standard', target: 'standard' },
          },
        },
      },
    },
    panel: {
      initial: 'shown',
      states: {
        shown: { on: { 'view.panel.toggle': 'hidden' } },
        // A discussion asked to be shown (History, a saved panel started) brings the hidden panel back.
        hidden: { on: { 'view.panel.toggle': 'shown', 'view.discussion.show': 'shown', 'view.panel.show': 'shown' } },
      },
    },
    devPanel: {
      initial: 'closed',
      states: {
        closed: { on: { 'view.debug.toggle': 'debug', 'view.tester.toggle': 'tester' } },
        debug: { on: { 'view.debug.toggle': 'closed', 'view.tester.toggle': 'tester' } },
        tester: { on: { 'view.tester.toggle': 'closed', 'view.debug.toggle': 'debug' } },
      },
    },
    connectionTest: {
      initial: 'idle',
      states: {
        idle: { on: { 'connection.test': 'testing' } },
        testing: {
          invoke: {
            src: 'probeHealth',
            id: 'connectionProbe',
            onDone: [
              {
                guard: { type: 'isHealthy', params: ({ event }) => ({ health: event.output }) },
                target: 'idle',
                actions: { type: 'notify', params: { kind: 'success', text: SHELL_MESSAGES.connectionTestOk } },
              },
              {
                target: 'idle',
                actions: { type: 'notify', params: { kind: 'error', text: SHELL_MESSAGES.connectionTestFailed } },
              },
            ],
            onError: {
              target: 'idle',
              actions: {
                type: 'notify',
                params: ({ event }) => ({
                  kind: 'error',
                  text: answeredAtAll(event.error)
                    ? SHELL_MESSAGES.connectionTestFailed
                    : SHELL_MESSAGES.connectionTestError,
                }),
              },
            },
          },
        },
      },
    },
  },
});

export type AppActorRef = ActorRefFrom<typeof appMachine>;
export type AppSnapshot = SnapshotFrom<typeof appMachine>;

declare module './kit/systemRegistry' {
  interface SystemActors {
    app: ActorRefFrom<typeof appMachine>;
  }
}
