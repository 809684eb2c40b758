// The REST calls of the Models dialog (README 'Models'), on the one HTTP helper; each answer checked by its schema.
import { fromPromise } from 'xstate';
import { z } from 'zod';
import { modelsMachine } from '../machines/models.machine';
import {
  modelConnection,
  modelConnectionList,
  modelConnectionTestResult,
  modelJob,
  modelJobList,
  type ModelConnectionCreate,
  type ModelConnectionTestBody,
  type ModelConnectionUpdate,
} from '../schemas/modelConnections';
import type { builtinModelsLogic } from './builtinModelsActors';
import type { Http } from './http';

export function createModelsApi({ request }: Http) {
  const enc = encodeURIComponent;
  const anything = z.unknown();
  return {
    list: async () => (await request('GET', '/model-connections', modelConnectionList, { retry: true })).connections,
    test: (body: ModelConnectionTestBody) => request('POST', '/model-connections/test', modelConnectionTestResult, { json: body }),
    save: ({ id, body }: { id: string | null; body: ModelConnectionCreate | ModelConnectionUpdate }) =>
      id ? request('PATCH', `/model-connections/${enc(id)}`, modelConnection, { json: body }) : request('POST', '/model-connections', modelConnection, { json: body }),
    remove: ({ id }: { id: string }) => request('DELETE', `/model-connections/${enc(id)}`, anything),
    pull: ({ connectionId, model }: { connectionId: string; model: string }) => request('POST', `/model-connections/${enc(connectionId)}/pull`, modelJob, { json: { model } }),
    cancel: ({ jobId }: { jobId: string }) => request('DELETE', `/model-jobs/${enc(jobId)}`, modelJob),
    deleteModel: ({ connectionId, model }: { connectionId: string; model: string }) =>
      request('DELETE', `/model-connections/${enc(connectionId)}/models/${enc(model)}`, anything),
    jobs: async () => (await request('GET', '/model-jobs', modelJobList, { retry: true })).jobs,
  };
}
export type ModelsApi = ReturnType<typeof createModelsApi>;

/** The models chart with its actors on the real API (and the Built-in engine's section on its own). */
export function createModelsLogic(api: ModelsApi, builtinModels?: ReturnType<typeof builtinModelsLogic>) {
  return modelsMachine.provide({
    actors: {
      ...(builtinModels ? { builtinModels } : {}),
      loadConnections: fromPromise(() => api.list()),
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
