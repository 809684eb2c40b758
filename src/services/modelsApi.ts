// The REST calls of the Models dialog (docs/models.md), on the one HTTP helper; each answer checked by its schema.
import { fromPromise } from 'xstate';
import { modelsMachine } from '../machines/models.machine';
import type {
  ModelConnectionCreate,
  ModelConnectionTestBody,
  ModelConnectionUpdate,
} from '../schemas/modelConnections';
import type { builtinModelsLogic } from './builtinModelsActors';
import type { speechConnectionsLogic } from './speechActors';
import type { toolConnectionsLogic } from './toolsActors';
import type { Http } from './http';
import { lazyAsk } from './lazyAsk';

export function createModelsApi({ request }: Http) {
  const enc = encodeURIComponent;
  const ask = lazyAsk(request);
  return {
    list: async () => (await ask('GET', '/model-connections', 'modelConnectionList', { retry: true })).connections,
    /** Every connection probed now (GET /model-connections may reuse a state read seconds ago). */
    check: async () => (await ask('GET', '/model-connections/status', 'modelConnectionList')).connections,
    test: (body: ModelConnectionTestBody) =>
      ask('POST', '/model-connections/test', 'modelConnectionTestResult', { json: body }),
    save: ({ id, body }: { id: string | null; body: ModelConnectionCreate | ModelConnectionUpdate }) =>
      id
        ? ask('PATCH', `/model-connections/${enc(id)}`, 'modelConnection', { json: body })
        : ask('POST', '/model-connections', 'modelConnection', { json: body }),
    remove: ({ id }: { id: string }) => ask('DELETE', `/model-connections/${enc(id)}`, 'anything'),
    pull: ({ connectionId, model }: { connectionId: string; model: string }) =>
      ask('POST', `/model-connections/${enc(connectionId)}/pull`, 'modelJob', { json: { model } }),
    cancel: ({ jobId }: { jobId: string }) => ask('DELETE', `/model-jobs/${enc(jobId)}`, 'modelJob'),
    deleteModel: ({ connectionId, model }: { connectionId: string; model: string }) =>
      ask('DELETE', `/model-connections/${enc(connectionId)}/models/${enc(model)}`, 'anything'),
    jobs: async () => (await ask('GET', '/model-jobs', 'modelJobList', { retry: true })).jobs,
  };
}
export type ModelsApi = ReturnType<typeof createModelsApi>;

/** The models chart with its actors on the real API (and the Built-in engine's section on its own). */
export function createModelsLogic(
  api: ModelsApi,
  builtinModels?: ReturnType<typeof builtinModelsLogic>,
  speechConnections?: ReturnType<typeof speechConnectionsLogic>,
  toolConnections?: ReturnType<typeof toolConnectionsLogic>,
) {
  return modelsMachine.provide({
    actors: {
      ...(builtinModels ? { builtinModels } : {}),
      ...(speechConnections ? { speechConnections } : {}),
      ...(toolConnections ? { toolConnections } : {}),
      loadConnections: fromPromise(() => api.list()),
      checkConnections: fromPromise(() => api.check()),
      loadJobs: fromPromise(() => api.jobs()),
      testConnection: fromPromise(({ input }) => api.test(input)),
      saveConnection: fromPromise(({ input }) => api.save(input)),
      deleteConnection: fromPromise(({ input }) => api.remove(input)),
      startPull: fromPromise(({ input }) => api.pull(input)),
      cancelPull: fromPromise(({ input }) => api.cancel(input)),
      deleteModel: fromPromise(({ input }) => api.deleteModel(input)),
    },
  });
}
