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
import { assertEvent, assign, fromPromise, raise, setup, type ActorRefFrom, type SnapshotFrom } from 'xstate';
import type { LiveServerFrame } from '../schemas/liveUpdates';
import type {
  ModelConnection,
  ModelConnectionCreate,
  ModelConnectionTestBody,
  ModelConnectionTestResult,
  ModelConnectionUpdate,
  ModelJob,
} from '../schemas/modelConnections';
import { notProvided } from './kit/actorKit';
import {
  blankForm,
  editableConnection,
  errorText,
  formFrom,
  isFormUsable,
  NO_FORM,
  saveBody,
  testBody,
  withPreset,
  type ModelsContext,
  type ModelsEvent,
  type PendingDelete,
} from '../model/modelsForm';

export { blankForm, errorText, isFormUsable, saveBody, testBody } from '../model/modelsForm';
export type {
  ConnectionForm,
  FormField,
  FormKind,
  ModelsContext,
  ModelsEvent,
  PendingDelete,
} from '../model/modelsForm';
import { builtinModelsMachine } from './builtinModels.machine';
import { speechConnectionsMachine } from './speechConnections.machine';
import { toolConnectionsMachine } from './toolConnections.machine';

/** The connections read, first or again. */
const loadList = {
  src: 'loadConnections',
  onDone: {
    target: 'ready',
    actions: {
      type: 'setConnections',
      params: ({ event }: { event: { output: ModelConnection[] } }) => ({ connections: event.output }),
    },
  },
  onError: {
    target: 'failed',
    actions: { type: 'setListError', params: ({ event }: { event: { error: unknown } }) => ({ error: event.error }) },
  },
} as const;

export const modelsMachine = setup({
  types: {
    context: {} as ModelsContext,
    events: {} as ModelsEvent,
    children: {} as {
      builtinModels: 'builtinModels';
      speechConnections: 'speechConnections';
      toolConnections: 'toolConnections';
    },
  },
  actors: {
    /** The Built-in connection's files and downloads (builtinModels.machine), provided with its REST calls. */
    builtinModels: builtinModelsMachine,
    /** The dialog's 'Speech' section (speechConnections.machine), provided with its REST calls. */
    speechConnections: speechConnectionsMachine,
    /** The dialog's 'Tools' section (toolConnections.machine): MCP servers, provided with their REST calls. */
    toolConnections: toolConnectionsMachine,
    loadConnections: fromPromise<ModelConnection[]>(notProvided('models', 'loadConnections')),
    checkConnections: fromPromise<ModelConnection[]>(notProvided('models', 'checkConnections')),
    loadJobs: fromPromise<ModelJob[]>(notProvided('models', 'loadJobs')),
    testConnection: fromPromise<ModelConnectionTestResult, ModelConnectionTestBody>(
      notProvided('models', 'testConnection'),
    ),
    saveConnection: fromPromise<
      ModelConnection,
      { id: string | null; body: ModelConnectionCreate | ModelConnectionUpdate }
    >(notProvided('models', 'saveConnection')),
    deleteConnection: fromPromise<unknown, { id: string }>(notProvided('models', 'deleteConnection')),
    startPull: fromPromise<ModelJob, { connectionId: string; model: string }>(notProvided('models', 'startPull')),
    cancelPull: fromPromise<ModelJob, { jobId: string }>(notProvided('models', 'cancelPull')),
    deleteModel: fromPromise<unknown, { connectionId: string; model: string }>(notProvided('models', 'deleteModel')),
  },
  guards: {
    isFormUsable: ({ context }) => isFormUsable(context.form),
    isChangedFrame: ({ event }) => {
      assertEvent(event, 'live.frame');
      return event.frame.type === 'model_connections_changed';
    },
  },
  actions: {
    keepJob: assign({
      jobs: ({ context }, params: { job: ModelJob }) => ({ ...context.jobs, [params.job.id]: params.job }),
    }),
    setActionError: assign({ actionError: (_, params: { error: unknown }) => errorText(params.error) }),
    setConnections: assign({
      connections: (_, params: { connections: ModelConnection[] }) => params.connections,
      listError: null,
    }),
    setListError: assign({ listError: (_, params: { error: unknown }) => errorText(params.error) }),
  },
}).createMachine({
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
    form: {
      initial: 'closed',
      states: {
        closed: {
          on: {
            'models.add': {
              target: 'editing',
              actions: assign({ form: ({ event }) => blankForm(event.kind ?? 'ollama'), test: null, formError: null }),
            },
            'models.edit': {
              guard: ({ context, event }) => editableConnection(context.connections, event.id) !== undefined,
              target: 'editing',
              actions: assign({
                form: ({ context, event }) => formFrom(editableConnection(context.connections, event.id)!),
                test: null,
                formError: null,
              }),
            },
          },
        },
        editing: {
          tags: 'formOpen',
          initial: 'idle',
          on: { 'models.form.cancel': { target: 'closed', actions: assign(NO_FORM) } },
          states: {
            idle: {
              on: {
                'models.form.kind': {
                  guard: ({ context }) => context.form?.mode === 'create',
                  actions: assign({ form: ({ event }) => blankForm(event.kind), test: null, formError: null }),
                },
                'models.form.preset': {
                  actions: assign({
                    form: ({ context, event }) => withPreset(context.form!, event.preset),
                    test: null,
                  }),
                },
                'models.form.field': {
                  actions: assign({
                    form: ({ context, event }) => ({ ...context.form!, [event.field]: event.value }),
                    test: null,
                    formError: null,
                  }),
                },
                'models.form.test': { guard: 'isFormUsable', target: 'testing' },
                'models.form.save': { guard: 'isFormUsable', target: 'saving' },
              },
            },
            testing: {
              tags: 'testing',
              invoke: {
                src: 'testConnection',
                input: ({ context }) => testBody(context.form!),
                onDone: { target: 'idle', actions: assign({ test: ({ event }) => event.output, formError: null }) },
                onError: { target: 'idle', actions: assign({ formError: ({ event }) => errorText(event.error) }) },
              },
            },
            saving: {
              tags: 'saving',
              invoke: {
                src: 'saveConnection',
                input: ({ context }) => ({ id: context.form!.id, body: saveBody(context.form!) }),
                onDone: {
                  target: '#models.form.closed',
                  actions: [assign(NO_FORM), raise({ type: 'models.refresh' })],
                },
                // The form keeps every field: nothing typed is lost to a refused save.
                onError: { target: 'idle', actions: assign({ formError: ({ event }) => errorText(event.error) }) },
              },
            },
          },
        },
      },
    },
    action: {
      initial: 'idle',
      states: {
        idle: {
          on: {
            'models.pull': {
              guard: ({ event }) => event.model.trim() !== '',
              target: 'pulling',
              actions: assign({ actionError: null }),
            },
            'models.pull.cancel': { target: 'cancelling' },
            'models.model.delete': {
              target: 'confirmingDelete',
              actions: assign({
                pendingDelete: ({ event }) => ({
                  what: 'model' as const,
                  connectionId: event.connectionId,
                  model: event.model,
                }),
              }),
            },
            'models.connection.delete': {
              guard: ({ context, event }) => editableConnection(context.connections, event.id) !== undefined,
              target: 'confirmingDelete',
              actions: assign({
                pendingDelete: ({ context, event }) => ({
                  what: 'connection' as const,
                  id: event.id,
                  name: editableConnection(context.connections, event.id)!.name,
                }),
              }),
            },
          },
        },
        pulling: {
          tags: 'startingPull',
          invoke: {
            src: 'startPull',
            input: ({ event }) => {
              assertEvent(event, 'models.pull');
              return { connectionId: event.connectionId, model: event.model.trim() };
            },
            onDone: { target: 'idle', actions: { type: 'keepJob', params: ({ event }) => ({ job: event.output }) } },
            onError: {
              target: 'idle',
              actions: { type: 'setActionError', params: ({ event }) => ({ error: event.error }) },
            },
          },
        },
        cancelling: {
          invoke: {
            src: 'cancelPull',
            input: ({ event }) => {
              assertEvent(event, 'models.pull.cancel');
              return { jobId: event.jobId };
            },
            onDone: 'idle',
            onError: {
              target: 'idle',
              actions: { type: 'setActionError', params: ({ event }) => ({ error: event.error }) },
            },
          },
        },
        confirmingDelete: {
          tags: 'confirmingDelete',
          on: {
            'models.delete.cancel': { target: 'idle', actions: assign({ pendingDelete: null }) },
            'models.delete.confirm': [
              { guard: ({ context }) => context.pendingDelete?.what === 'connection', target: 'deletingConnection' },
              { target: 'deletingModel' },
            ],
          },
        },
        deletingConnection: {
          tags: 'deleting',
          invoke: {
            src: 'deleteConnection',
            input: ({ context }) => ({
              id: (context.pendingDelete as Extract<PendingDelete, { what: 'connection' }>).id,
            }),
            onDone: {
              target: 'idle',
              actions: [
                assign(({ context }) => ({
                  pendingDelete: null,
                  connections: context.connections.filter(
                    (c) => c.id !== (context.pendingDelete as { id?: string }).id,
                  ),
                })),
                raise({ type: 'models.refresh' }),
              ],
            },
            onError: {
              target: 'idle',
              actions: [
                assign({ pendingDelete: null }),
                { type: 'setActionError', params: ({ event }) => ({ error: event.error }) },
              ],
            },
          },
        },
        deletingModel: {
          tags: 'deleting',
          invoke: {
            src: 'deleteModel',
            input: ({ context }) => {
              const { connectionId, model } = context.pendingDelete as Extract<PendingDelete, { what: 'model' }>;
              return { connectionId, model };
            },
            onDone: { target: 'idle', actions: [assign({ pendingDelete: null }), raise({ type: 'models.refresh' })] },
            onError: {
              target: 'idle',
              actions: [
                assign({ pendingDelete: null }),
                { type: 'setActionError', params: ({ event }) => ({ error: event.error }) },
              ],
            },
          },
        },
      },
    },
  },
});

export type ModelsActorRef = ActorRefFrom<typeof modelsMachine>;
export type ModelsSnapshot = SnapshotFrom<typeof modelsMachine>;

declare module './kit/systemRegistry' {
  interface SystemActors {
    models: ActorRefFrom<typeof modelsMachine>;
  }
}
