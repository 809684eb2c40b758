// The built-in engine's model files (the Models dialog's 'Built-in' section): list, download with progress,
// add a file from the server's disk, delete. One request at a time; each is followed by a fresh list. Download
// progress arrives as `model_download` live frames (the live channel sends them to this actor, system id
// 'builtinModels', as 'live.frame'); only when a running download has sent no frame for BUILTIN_POLL_MS (the
// live socket is down) is the list re-read, so the bar still moves.
import { assertEvent, assign, fromPromise, setup, type ActorRefFrom, type SnapshotFrom } from 'xstate';
import { notProvided } from './kit/actorKit';
import { readFailure } from '../model/failures';
import type { BuiltinModelsList, DownloadRequest, ModelDownload } from '../schemas/builtinModels';
import type { LiveServerFrame } from '../schemas/liveUpdates';

/** The server sends a running download's progress several times a second; this long without one, poll. */
export const BUILTIN_POLL_MS = 3000;

export interface BuiltinModelsContext {
  list: BuiltinModelsList | null;
  /** What the last request failed with, in the server's words. */
  error: string | null;
}

export type BuiltinModelsEvent =
  | { type: 'models.reload' }
  | { type: 'download.start'; request: DownloadRequest }
  | { type: 'download.cancel'; file: string }
  | { type: 'file.add'; path: string }
  | { type: 'file.delete'; name: string }
  | { type: 'error.dismiss' }
  | { type: 'live.frame'; frame: LiveServerFrame };

type Operation = Exclude<
  BuiltinModelsEvent,
  { type: 'models.reload' } | { type: 'error.dismiss' } | { type: 'live.frame' }
>;

const failureText = (error: unknown) => {
  const f = readFailure(error);
  return f.detail ?? f.message ?? 'The request failed';
};

const isActive = (d: ModelDownload) => d.state === 'running' || d.state === 'verifying';

export const builtinModelsMachine = setup({
  types: {
    context: {} as BuiltinModelsContext,
    events: {} as BuiltinModelsEvent,
  },
  actors: {
    listModels: fromPromise<BuiltinModelsList>(notProvided('builtinModels', 'listModels')),
    runOperation: fromPromise<unknown, Operation>(notProvided('builtinModels', 'runOperation')),
  },
  guards: {
    hasActiveDownload: ({ context }) => !!context.list?.downloads.some(isActive),
    isDownloadFrame: ({ event }) => {
      assertEvent(event, 'live.frame');
      return event.frame.type === 'model_download';
    },
    /** A download just ended well: its file is now a model, so the list must be read again. */
    isFinishedDownload: ({ event }) => {
      assertEvent(event, 'live.frame');
      return event.frame.type === 'model_download' && event.frame.download.state === 'done';
    },
  },
  actions: {
    mergeDownload: assign({
      list: ({ context, event }) => {
        assertEvent(event, 'live.frame');
        if (event.frame.type !== 'model_download' || !context.list) return context.list;
        const d = event.frame.download;
        const others = context.list.downloads.filter((x) => x.file !== d.file);
        return { ...context.list, downloads: [...others, d].sort((a, b) => a.file.localeCompare(b.file)) };
      },
    }),
  },
}).createMachine({
  id: 'builtinModels',
  context: { list: null, error: null },
  initial: 'loading',
  on: {
    'live.frame': { actions: 'mergeDownload' },
    'error.dismiss': { actions: assign({ error: null }) },
  },
  states: {
    loading: {
      invoke: {
        src: 'listModels',
        onDone: { target: 'ready', actions: assign({ list: ({ event }) => event.output, error: null }) },
        onError: { target: 'failed', actions: assign({ error: ({ event }) => failureText(event.error) }) },
      },
    },
    failed: {
      on: { 'models.reload': 'loading' },
    },
    ready: {
      after: { [BUILTIN_POLL_MS]: { guard: 'hasActiveDownload', target: 'refreshing' } },
      on: {
        // A frame re-enters 'ready', so the poll only fires after BUILTIN_POLL_MS without one.
        'live.frame': [
          { guard: 'isFinishedDownload', actions: 'mergeDownload', target: 'refreshing' },
          { guard: 'isDownloadFrame', actions: 'mergeDownload', target: 'ready', reenter: true },
        ],
        'models.reload': 'refreshing',
        'download.start': 'working',
        'download.cancel': 'working',
        'file.add': 'working',
        'file.delete': 'working',
      },
    },
    working: {
      entry: assign({ error: null }),
      invoke: {
        src: 'runOperation',
        input: ({ event }) => {
          assertEvent(event, ['download.start', 'download.cancel', 'file.add', 'file.delete']);
          return event;
        },
        onDone: 'refreshing',
        onError: { target: 'refreshing', actions: assign({ error: ({ event }) => failureText(event.error) }) },
      },
    },
    refreshing: {
      invoke: {
        src: 'listModels',
        onDone: { target: 'ready', actions: assign({ list: ({ event }) => event.output }) },
        onError: { target: 'ready', actions: assign({ error: ({ event }) => failureText(event.error) }) },
      },
    },
  },
});

export type BuiltinModelsActorRef = ActorRefFrom<typeof builtinModelsMachine>;
export type BuiltinModelsSnapshot = SnapshotFrom<typeof builtinModelsMachine>;

declare module './kit/systemRegistry' {
  interface SystemActors {
    builtinModels: ActorRefFrom<typeof builtinModelsMachine>;
  }
}
