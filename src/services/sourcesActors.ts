// The sources chart with its actors on the real API (docs/sources.md).
import { fromPromise } from 'xstate';
import { sourcesMachine } from '../machines/sources.machine';
import type { SourcesApi } from './sourcesApi';

export function sourcesLogic(api: SourcesApi) {
  return sourcesMachine.provide({
    actors: {
      loadSources: fromPromise(() => api.listSources()),
      addSource: fromPromise(({ input }) => api.addSource(input)),
      removeSource: fromPromise(({ input }) => api.removeSource(input)),
      loadPassage: fromPromise(({ input }) => api.loadPassage(input)),
      loadEmbedding: fromPromise(() => api.loadEmbedding()),
      saveEmbedding: fromPromise(({ input }) => api.saveEmbedding(input)),
    },
  });
}
