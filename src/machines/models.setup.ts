// The Models chart's setup (types, actors, guards, actions), shared by the chart (models.machine.ts) and the
// region files that are split off it by lifecycle (models.form.states.ts, models.action.states.ts).
import { assertEvent, assign, fromPromise, setup } from 'xstate';
import type {
  ModelConnection,
  ModelConnectionCreate,
  ModelConnectionTestBody,
  ModelConnectionTestResult,
  ModelConnectionUpdate,
  ModelJob,
} from '../schemas/modelConnections';
import { errorText, isFormUsable, type ModelsContext, type ModelsEvent } from '../model/modelsForm';
import { notProvided } from './kit/actorKit';
import { builtinModelsMachine } from './builtinModels.machine';
import { speechConnectionsMachine } from './speechConnections.machine';
import { toolConnectionsMachine } from './toolConnections.machine';

/** The connections read, first or again. */
export const loadList = {
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

export const modelsSetup = setup({
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
});
