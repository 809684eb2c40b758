// The built-in models section's REST calls (/api/builtin-models), each answer checked by its schema, and the
// chart with them provided. The host (the Models dialog) creates the actor from `builtinModelsLogic(http)`.
import { fromPromise } from 'xstate';
import type { DownloadRequest } from '../schemas/builtinModels';
import { builtinModelsMachine, type BuiltinModelsEvent } from '../machines/builtinModels.machine';
import type { Http } from './http';
import { lazyAsk } from './lazyAsk';

export function createBuiltinModelsApi({ request }: Http) {
  const enc = encodeURIComponent;
  // Schemas named, not imported: they load with the first call (lazyAsk), off the sign-in screen's JavaScript.
  const ask = lazyAsk(request);
  return {
    list: () => ask('GET', '/api/builtin-models', 'builtinModelsList', { retry: true }),
    download: (body: DownloadRequest) => ask('POST', '/api/builtin-models/downloads', 'modelDownload', { json: body }),
    cancelDownload: (file: string) => ask('DELETE', `/api/builtin-models/downloads/${enc(file)}`, 'anything'),
    addFile: (path: string) => ask('POST', '/api/builtin-models/files', 'builtinModelFile', { json: { path } }),
    deleteFile: (name: string) => ask('DELETE', `/api/builtin-models/files/${enc(name)}`, 'anything'),
  };
}

type Operation = Extract<
  BuiltinModelsEvent,
  { type: 'download.start' | 'download.cancel' | 'file.add' | 'file.delete' }
>;

export function builtinModelsLogic(http: Http) {
  const api = createBuiltinModelsApi(http);
  return builtinModelsMachine.provide({
    actors: {
      listModels: fromPromise(() => api.list()),
      runOperation: fromPromise<unknown, Operation>(({ input }) => {
        switch (input.type) {
          case 'download.start':
            return api.download(input.request);
          case 'download.cancel':
            return api.cancelDownload(input.file);
          case 'file.add':
            return api.addFile(input.path);
          case 'file.delete':
            return api.deleteFile(input.name);
        }
      }),
    },
  });
}
