// The user's model connections and the Models dialog (docs/models.md). It runs for the whole signed-in session,
// so the canvas and the panels know when only the offline model exists (the 'Connect a model' hint), and it hears
// the live-update frames of pulls (`model_job`) and of changed connections from any tab. Regions:
//   list    — the connections with their state and models: loading → ready | failed (reloaded on open, on a
//             `model_connections_changed` frame, after a save or a delete); checking probes them all now (before
//             Start), keeping the list it had when the check fails
//   jobs    — the pulls the server is running or has just finished: read on start and on open, then kept by frames
//   dialog  — closed | open (while open, the Built-in engine's files run as the child `builtinModels`, the
//             'Speech' section as `speechConnections`, its 'Tools' section as `toolConnections`)
//   form    — closed | editing (idle → testing → idle, idle → saving → closed): one connection being added or edited
//   action  — idle | pulling | cancelling | deletingModel | confirmingDelete → deletingConnection: one request at a time
//   hint    — shown | dismissed: the quiet 'Connect a model' notice
import { assign, raise, type ActorRefFrom, type SnapshotFrom } from 'xstate';
import type { LiveServerFrame } from '../schemas/liveUpdates';
import { NO_FORM } from '../model/modelsForm';
import { loadList, modelsSetup } from './models.setup';
import { modelsActionRegion } from './models.action.states';
import { modelsFormRegion } from './models.form.states';

export { blankForm, errorText, isFormUsable, saveBody, testBody } from '../model/modelsForm';
export type {
  ConnectionForm,
  FormField,
  FormKind,
  ModelsContext,
  ModelsEvent,
  PendingDelete,
} from '../model/modelsForm';

export const modelsMachine = modelsSetup.createMachine({
  id: 'models',
  type: 'parallel',
  context: {
    connections: [],
    listError: null,
    jobs: {},
    form: null,
    test: null,
    formError: null,
    actionError: null,
    pendingDelete: null,
  },
  // Reloads are transitions of the region they reload: one on the root would re-enter every region (and close the
  // dialog that asked for it).
  on: {
    'live.frame': {
      guard: ({ event }) => event.frame.type === 'model_job',
      actions: {
        type: 'keepJob',
        params: ({ event }) => ({ job: (event.frame as Extract<LiveServerFrame, { type: 'model_job' }>).job }),
      },
    },
    'models.error.dismiss': { actions: assign({ actionError: null }) },
  },
  states: {
    hint: {
      initial: 'shown',
      states: {
        shown: { on: { 'models.hint.dismiss': 'dismissed' } },
        dismissed: {},
      },
    },
    list: {
      // 'loading' is the first read; 'reloading' keeps what was read meanwhile, so nothing derived from it flickers.
      initial: 'loading',
      on: {
        'models.refresh': '.reloading',
        'live.frame': { guard: 'isChangedFrame', target: '.reloading' },
        // The socket was down: connections may have changed meanwhile.
        'live.resync': '.reloading',
      },
      states: {
        loading: { invoke: loadList },
        reloading: { tags: 'listReloading', invoke: loadList },
        ready: { on: { 'models.status.check': 'checking' } },
        failed: {},
        // A check that fails (a rate limit, the server away) says nothing new: the list stays as it was.
        checking: {
          invoke: {
            src: 'checkConnections',
            onDone: {
              target: 'ready',
              actions: { type: 'setConnections', params: ({ event }) => ({ connections: event.output }) },
            },
            onError: 'ready',
          },
        },
      },
    },
    jobs: {
      initial: 'loading',
      // The socket was down: pulls may have moved on.
      on: { 'live.resync': '.loading', 'models.refresh': '.loading' },
      states: {
        loading: {
          invoke: {
            src: 'loadJobs',
            // Frames that arrived meanwhile are newer than the list: they win.
            onDone: {
              target: 'ready',
              actions: assign({
                jobs: ({ context, event }) => ({
                  ...Object.fromEntries(event.output.map((j) => [j.id, j])),
                  ...context.jobs,
                }),
              }),
            },
            onError: 'ready',
          },
        },
        ready: {},
      },
    },
    dialog: {
      initial: 'closed',
      states: {
        closed: { on: { 'models.open': { target: 'open' } } },
        open: {
          tags: 'dialogOpen',
          // The live channel sends `model_download` frames to it by its system id.
          invoke: [
            { src: 'builtinModels', id: 'builtinModels', systemId: 'builtinModels' },
            { src: 'speechConnections', id: 'speechConnections' },
            { src: 'toolConnections', id: 'toolConnections' },
          ],
          // Opening reads the state afresh: a connection may have come up, a pull may have moved on in another tab.
          entry: [raise({ type: 'models.refresh' })],
          on: {
            'models.open': { target: 'open', reenter: true },
            'models.close': {
              target: 'closed',
              actions: assign({ ...NO_FORM, pendingDelete: null, actionError: null }),
            },
          },
        },
      },
    },
    form: modelsFormRegion,
    action: modelsActionRegion,
  },
});

export type ModelsActorRef = ActorRefFrom<typeof modelsMachine>;
export type ModelsSnapshot = SnapshotFrom<typeof modelsMachine>;

declare module './kit/systemRegistry' {
  interface SystemActors {
    models: ActorRefFrom<typeof modelsMachine>;
  }
}
