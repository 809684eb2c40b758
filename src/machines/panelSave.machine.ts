// 'Save as panel' (docs/integrations.md#saved-panels): the canvas's selection of agents, with the standard panel's
// format and settings as chosen, saved under a name other clients call it by (`panel:<name>`). The name is checked by
// the server's own rule as it is typed; the server's words (a 409 for a name taken, a 422) are shown as they come.
//   closed → open (editing ⇄ saving) → closed, with a toast once saved
import { assign, enqueueActions, fromPromise, setup, type ActorRefFrom, type SnapshotFrom } from 'xstate';
import { nameProblem, panelDraftOf, selectionProblem, type PanelDraft } from '../model/savedPanel';
import { PANEL_MESSAGES } from '../schemas/messages';
import type { Panel, PanelCreate } from '../schemas/panels';
import type { StandardPanelSettings } from '../schemas/settings';
import { notifyToasts, notProvided } from './kit/actorKit';

export interface PanelSaveContext {
  draft: PanelDraft | null;
  name: string;
  /** The name's problem, or the server's answer to the last save. */
  error: string | null;
}

export type PanelSaveEvent =
  | { type: 'panelSave.open'; agentIds: string[]; settings: StandardPanelSettings }
  | { type: 'panelSave.name.change'; name: string }
  | { type: 'panelSave.submit' }
  | { type: 'panelSave.close' };

export const panelSaveErrorText = (e: unknown) =>
  e instanceof Error ? e.message : typeof e === 'string' ? e : 'The panel could not be saved';

export const panelSaveMachine = setup({
  types: { context: {} as PanelSaveContext, events: {} as PanelSaveEvent },
  actors: {
    savePanel: fromPromise<Panel, PanelCreate>(notProvided('panelSave', 'savePanel')),
  },
  guards: {
    isSelectionSavable: ({ event }) => event.type === 'panelSave.open' && selectionProblem(event.agentIds) === null,
    isNameValid: ({ context }) => nameProblem(context.name) === null,
  },
  actions: {
    notify: enqueueActions(notifyToasts),
  },
}).createMachine({
  id: 'panelSave',
  context: { draft: null, name: '', error: null },
  initial: 'closed',
  states: {
    closed: {
      on: {
        'panelSave.open': [
          {
            guard: 'isSelectionSavable',
            target: 'open',
            actions: assign({
              draft: ({ event }) => panelDraftOf(event.agentIds, event.settings),
              name: '',
              error: null,
            }),
          },
          {
            actions: {
              type: 'notify',
              params: ({ event }) => ({ kind: 'warning', text: selectionProblem(event.agentIds) ?? '' }),
            },
          },
        ],
      },
    },
    open: {
      tags: 'dialogOpen',
      initial: 'editing',
      states: {
        editing: {
          on: {
            'panelSave.name.change': { actions: assign({ name: ({ event }) => event.name, error: null }) },
            'panelSave.submit': [
              { guard: 'isNameValid', target: 'saving' },
              { actions: assign({ error: ({ context }) => nameProblem(context.name) }) },
            ],
            'panelSave.close': '#panelSave.closed',
          },
        },
        saving: {
          tags: 'busy',
          invoke: {
            src: 'savePanel',
            input: ({ context }) => ({ ...context.draft!, name: context.name.trim() }),
            onDone: {
              target: '#panelSave.closed',
              actions: [
                {
                  type: 'notify',
                  params: ({ event }) => ({
                    kind: 'success',
                    text: PANEL_MESSAGES.saved(event.output.name, event.output.agent_ids.length),
                  }),
                },
                assign({ draft: null }),
              ],
            },
            onError: { target: 'editing', actions: assign({ error: ({ event }) => panelSaveErrorText(event.error) }) },
          },
        },
      },
    },
  },
});

export type PanelSaveActorRef = ActorRefFrom<typeof panelSaveMachine>;
export type PanelSaveSnapshot = SnapshotFrom<typeof panelSaveMachine>;

declare module './kit/systemRegistry' {
  interface SystemActors {
    panelSave: ActorRefFrom<typeof panelSaveMachine>;
  }
}
