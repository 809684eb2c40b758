// The 'Panels' dialog (docs/integrations.md#saved-panels): the person's saved panels, read when it opens; a name
// edited in place (checked by the server's rule, the server's words shown); a delete asked first; and 'Start
// discussion', which selects the panel's agents on the canvas, sets the standard panel's format and settings to the
// panel's and shows that panel, where the person writes a topic and presses Start as always (refused, the dialog left
// open with the reason, while a discussion runs: it would change that run's selection under it).
//   dialog — closed | open
//   data   — loading → idle | failed (Retry)
//   action — ready | editing → renaming | confirmingDelete → deleting
import {
  assign,
  enqueueActions,
  fromPromise,
  setup,
  type ActorRefFrom,
  type ActorSystem,
  type SnapshotFrom,
} from 'xstate';
import { nameProblem, panelStartSettings, presentAgentIds } from '../model/savedPanel';
import { PANEL_MESSAGES } from '../schemas/messages';
import type { Panel } from '../schemas/panels';
import { notifyToasts, notProvided } from './kit/actorKit';
import { systemActor } from './kit/systemRegistry';

export interface PanelRename {
  id: string;
  name: string;
  error: string | null;
}

export interface PanelsContext {
  panels: Panel[];
  loadError: string | null;
  actionError: string | null;
  rename: PanelRename | null;
  /** The panel a delete is asked for or under way. */
  pendingId: string | null;
}

export type PanelsEvent =
  | { type: 'panels.open' }
  | { type: 'panels.close' }
  | { type: 'panels.retry' }
  | { type: 'panels.rename.begin'; id: string }
  | { type: 'panels.rename.change'; name: string }
  | { type: 'panels.rename.commit' }
  | { type: 'panels.rename.cancel' }
  | { type: 'panels.delete.request'; id: string }
  | { type: 'panels.delete.confirm' }
  | { type: 'panels.delete.cancel' }
  | { type: 'panels.start'; id: string }
  | { type: 'panels.error.dismiss' };

const errorText = (e: unknown) => (e instanceof Error ? e.message : typeof e === 'string' ? e : 'Something went wrong');
const panelOf = (context: PanelsContext, id: string | null | undefined) => context.panels.find((p) => p.id === id);
/** A panel's run still going on (connecting, live, stopping): starting a saved panel would change its selection. */
// biome-ignore lint/suspicious/noExplicitAny: a chart's own `system` is untyped (ActorSystem<any>)
const aRunGoesOn = (system: ActorSystem<any>) =>
  (['standardDiscussion', 'hybridDiscussion'] as const).some((id) => {
    const snapshot = systemActor(system, id)?.getSnapshot();
    return !!snapshot && ['live', 'connecting', 'stopping'].some((tag) => snapshot.hasTag(tag as never));
  });

export const panelsMachine = setup({
  types: { context: {} as PanelsContext, events: {} as PanelsEvent },
  actors: {
    loadPanels: fromPromise<Panel[]>(notProvided('panels', 'loadPanels')),
    renamePanel: fromPromise<Panel, { id: string; name: string }>(notProvided('panels', 'renamePanel')),
    deletePanel: fromPromise<unknown, { id: string }>(notProvided('panels', 'deletePanel')),
  },
  guards: {
    isKnownPanel: ({ context, event }) => 'id' in event && panelOf(context, event.id) !== undefined,
    isNameUnchanged: ({ context }) =>
      context.rename !== null && panelOf(context, context.rename.id)?.name === context.rename.name.trim(),
    isNameValid: ({ context }) => context.rename !== null && nameProblem(context.rename.name) === null,
  },
  actions: {
    notify: enqueueActions(notifyToasts),
    /**
     * The canvas selects the panel's agents (those that still exist), the standard panel takes its format and
     * settings, and the main screen shows that panel. Start stays the person's: a topic is still to be written.
     */
    startPanel: enqueueActions(({ context, event, system, enqueue }) => {
      const panel = 'id' in event ? panelOf(context, event.id) : undefined;
      if (!panel) return;
      if (aRunGoesOn(system)) {
        enqueue.assign({ actionError: PANEL_MESSAGES.runGoesOn(panel.name) });
        return;
      }
      enqueue.raise({ type: 'panels.close' });
      const workspace = systemActor(system, 'workspace');
      const agents = workspace?.getSnapshot().context.agents ?? [];
      const ids = workspace ? presentAgentIds(panel, agents) : panel.agent_ids;
      if (workspace) enqueue.sendTo(workspace, { type: 'selection.set', ids });
      const discussion = systemActor(system, 'standardDiscussion');
      if (discussion) {
        const settings = panelStartSettings(panel, discussion.getSnapshot().context.settings);
        enqueue.sendTo(discussion, { type: 'panel.settings.update', settings });
      }
      const app = systemActor(system, 'app');
      if (app) enqueue.sendTo(app, { type: 'view.discussion.show', panel: 'standard' });
      const missing = panel.agent_ids.length - ids.length;
      notifyToasts(
        { system, enqueue },
        missing > 0
          ? { kind: 'warning', text: PANEL_MESSAGES.startedWithout(panel.name, missing, ids.length) }
          : { kind: 'info', text: PANEL_MESSAGES.started(panel.name) },
      );
    }),
  },
}).createMachine({
  id: 'panels',
  context: { panels: [], loadError: null, actionError: null, rename: null, pendingId: null },
  initial: 'closed',
  states: {
    closed: {
      on: { 'panels.open': { target: 'open', actions: assign({ rename: null, pendingId: null, actionError: null }) } },
    },
    open: {
      tags: 'dialogOpen',
      type: 'parallel',
      on: {
        'panels.close': 'closed',
        'panels.error.dismiss': { actions: assign({ actionError: null }) },
      },
      states: {
        data: {
          initial: 'loading',
          states: {
            loading: {
              tags: 'loading',
              invoke: {
                src: 'loadPanels',
                onDone: { target: 'idle', actions: assign({ panels: ({ event }) => event.output, loadError: null }) },
                onError: { target: 'failed', actions: assign({ loadError: ({ event }) => errorText(event.error) }) },
              },
            },
            idle: {},
            failed: { on: { 'panels.retry': 'loading' } },
          },
        },
        action: {
          initial: 'ready',
          states: {
            ready: {
              on: {
                'panels.rename.begin': {
                  guard: 'isKnownPanel',
                  target: 'editing',
                  actions: assign({
                    rename: ({ context, event }) => ({
                      id: event.id,
                      name: panelOf(context, event.id)!.name,
                      error: null,
                    }),
                    actionError: null,
                  }),
                },
                'panels.delete.request': {
                  guard: 'isKnownPanel',
                  target: 'confirmingDelete',
                  actions: assign({ pendingId: ({ event }) => event.id, actionError: null }),
                },
                'panels.start': { guard: 'isKnownPanel', actions: 'startPanel' },
              },
            },
            editing: {
              on: {
                'panels.rename.change': {
                  actions: assign({
                    rename: ({ context, event }) =>
                      context.rename && { ...context.rename, name: event.name, error: null },
                  }),
                },
                'panels.rename.commit': [
                  { guard: 'isNameUnchanged', target: 'ready', actions: assign({ rename: null }) },
                  { guard: 'isNameValid', target: 'renaming' },
                  {
                    actions: assign({
                      rename: ({ context }) =>
                        context.rename && { ...context.rename, error: nameProblem(context.rename.name) },
                    }),
                  },
                ],
                'panels.rename.cancel': { target: 'ready', actions: assign({ rename: null }) },
              },
            },
            renaming: {
              tags: 'busy',
              invoke: {
                src: 'renamePanel',
                input: ({ context }) => ({ id: context.rename!.id, name: context.rename!.name.trim() }),
                onDone: {
                  target: 'ready',
                  actions: assign({
                    panels: ({ context, event }) =>
                      context.panels.map((p) => (p.id === event.output.id ? event.output : p)),
                    rename: null,
                  }),
                },
                // The server's words (a name taken is a 409) under the field, which stays open to fix.
                onError: {
                  target: 'editing',
                  actions: assign({
                    rename: ({ context, event }) =>
                      context.rename && { ...context.rename, error: errorText(event.error) },
                  }),
                },
              },
            },
            confirmingDelete: {
              on: {
                'panels.delete.confirm': 'deleting',
                'panels.delete.cancel': { target: 'ready', actions: assign({ pendingId: null }) },
              },
            },
            deleting: {
              tags: 'busy',
              invoke: {
                src: 'deletePanel',
                input: ({ context }) => ({ id: context.pendingId! }),
                onDone: {
                  target: 'ready',
                  actions: assign({
                    panels: ({ context }) => context.panels.filter((p) => p.id !== context.pendingId),
                    pendingId: null,
                  }),
                },
                onError: {
                  target: 'ready',
                  actions: assign({ actionError: ({ event }) => errorText(event.error), pendingId: null }),
                },
              },
            },
          },
        },
      },
    },
  },
});

export type PanelsActorRef = ActorRefFrom<typeof panelsMachine>;
export type PanelsSnapshot = SnapshotFrom<typeof panelsMachine>;

declare module './kit/systemRegistry' {
  interface SystemActors {
    panels: ActorRefFrom<typeof panelsMachine>;
  }
}
