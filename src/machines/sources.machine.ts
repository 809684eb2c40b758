// The person's sources (docs/sources.md) as a discussion panel shows them: the list (loading → ready | failed),
// files and page addresses being added one at a time with the upload's progress, a removal, and which sources the
// next discussion reads ('attached'). The panels read `attached` when they start, and a source ticked or added
// during a run is told to them (the running one sends it); the feed's citation chips open a passage through the
// passage region. The embedding region holds the model passages are embedded with (searched by meaning as well as
// words) and saves a new choice; while any source is being embedded the list is read again every few seconds, so
// 'embedding…' turns into 'by words and meaning' without a reload.
import { assign, raise, not, type ActorRefFrom, type SnapshotFrom } from 'xstate';
import { errorText } from '../model/modelsForm';
import { WORDS_ONLY } from '../model/embeddingOptions';
import { attachedIds } from '../model/sourcesList';
import { sourcesSetup, type SourcesEvent } from './sources.setup';

export type { SourceAddition, SourcesContext, SourcesEvent } from './sources.setup';

export const sourcesMachine = sourcesSetup.createMachine({
  id: 'sources',
  type: 'parallel',
  context: {
    sources: [],
    listError: null,
    queue: [],
    progress: null,
    addError: null,
    attached: [],
    passage: null,
    embedding: null,
    embeddingError: null,
    embeddingSaving: null,
  },
  on: {
    'sources.attach': { actions: 'attach' },
    'sources.add.files': { actions: 'queueFiles' },
    'sources.add.url': {
      guard: ({ event }) => event.url.trim().length > 0,
      actions: assign({
        queue: ({ context, event }) => [...context.queue, { url: event.url.trim(), name: event.url.trim() }],
        addError: null,
      }),
    },
    'sources.add.dismiss': { actions: assign({ addError: null }) },
  },
  states: {
    list: {
      initial: 'loading',
      states: {
        loading: {
          // A refresh asked for while reading (a new embedding model was saved) reads again: this answer may be older.
          on: { 'sources.refresh': { target: 'loading', reenter: true } },
          invoke: {
            src: 'loadSources',
            onDone: {
              target: 'ready',
              actions: assign({
                sources: ({ event }) => event.output,
                listError: null,
                attached: ({ context, event }) => attachedIds(context.attached, event.output),
              }),
            },
            onError: { target: 'failed', actions: assign({ listError: ({ event }) => errorText(event.error) }) },
          },
        },
        ready: {
          on: { 'sources.refresh': 'loading' },
          initial: 'settled',
          states: {
            settled: { always: { guard: 'anyEmbedding', target: 'polling' } },
            // A source is being embedded in the background: read the list again until none is.
            polling: {
              always: { guard: not('anyEmbedding'), target: 'settled' },
              after: { embeddingPoll: '#sources.list.loading' },
            },
          },
        },
        failed: { on: { 'sources.refresh': 'loading' } },
      },
    },
    adding: {
      initial: 'idle',
      states: {
        idle: { always: { guard: ({ context }) => context.queue.length > 0, target: 'working' } },
        working: {
          tags: 'adding',
          entry: assign({ progress: null }),
          invoke: {
            src: 'addSource',
            input: ({ context, self }) => ({
              addition: context.queue[0],
              progress: (fraction: number | null) => self.send({ type: 'sources.add.progress', fraction }),
            }),
            onDone: {
              target: 'idle',
              actions: { type: 'takeAdded', params: ({ event }) => ({ source: event.output }) },
            },
            onError: {
              target: 'idle',
              actions: assign({
                addError: ({ context, event }) => ({ name: context.queue[0].name, message: errorText(event.error) }),
                queue: ({ context }) => context.queue.slice(1),
                progress: null,
              }),
            },
          },
          on: { 'sources.add.progress': { actions: assign({ progress: ({ event }) => event.fraction }) } },
        },
      },
    },
    removing: {
      initial: 'idle',
      states: {
        idle: { on: { 'sources.remove': 'working' } },
        working: {
          tags: 'removing',
          invoke: {
            src: 'removeSource',
            input: ({ event }) => ({ id: (event as { id: string }).id }),
            onDone: {
              target: 'idle',
              actions: assign({
                sources: ({ context, event }) => context.sources.filter((s) => s.id !== event.output.id),
                attached: ({ context, event }) => context.attached.filter((id) => id !== event.output.id),
              }),
            },
            onError: {
              target: 'idle',
              actions: assign({ addError: ({ event }) => ({ name: 'Remove', message: errorText(event.error) }) }),
            },
          },
        },
      },
    },
    embedding: {
      initial: 'loading',
      states: {
        loading: {
          invoke: {
            src: 'loadEmbedding',
            onDone: {
              target: 'ready',
              actions: assign({ embedding: ({ event }) => event.output, embeddingError: null }),
            },
            onError: { target: 'failed', actions: assign({ embeddingError: ({ event }) => errorText(event.error) }) },
          },
        },
        ready: { on: { 'sources.embedding.choose': 'saving' } },
        failed: { on: { 'sources.refresh': 'loading' } },
        saving: {
          tags: 'embeddingSaving',
          entry: assign({
            embeddingError: null,
            embeddingSaving: ({ event }) => (event as { model: string | null }).model ?? WORDS_ONLY,
          }),
          exit: assign({ embeddingSaving: null }),
          invoke: {
            src: 'saveEmbedding',
            input: ({ event }) => ({ model: (event as { model: string | null }).model }),
            // Every source is embedded again (or no longer): read the list so each says how it is searched now.
            onDone: {
              target: 'ready',
              actions: [assign({ embedding: ({ event }) => event.output }), raise({ type: 'sources.refresh' })],
            },
            onError: { target: 'ready', actions: assign({ embeddingError: ({ event }) => errorText(event.error) }) },
          },
        },
      },
    },
    passage: {
      initial: 'closed',
      states: {
        closed: {
          on: {
            'sources.passage.open': {
              target: 'loading',
              actions: assign({
                passage: ({ event }) => ({
                  passage: null,
                  quote: event.quote,
                  sourceName: event.sourceName,
                  error: null,
                }),
              }),
            },
          },
        },
        loading: {
          invoke: {
            src: 'loadPassage',
            input: ({ event }) => {
              const e = event as Extract<SourcesEvent, { type: 'sources.passage.open' }>;
              return { sourceId: e.sourceId, passageId: e.passageId };
            },
            onDone: {
              target: 'open',
              actions: assign({
                passage: ({ context, event }) => context.passage && { ...context.passage, passage: event.output },
              }),
            },
            onError: {
              target: 'open',
              actions: assign({
                passage: ({ context, event }) =>
                  context.passage && { ...context.passage, error: errorText(event.error) },
              }),
            },
          },
          on: { 'sources.passage.close': { target: 'closed', actions: assign({ passage: null }) } },
        },
        open: { on: { 'sources.passage.close': { target: 'closed', actions: assign({ passage: null }) } } },
      },
    },
  },
});

export type SourcesActor = ActorRefFrom<typeof sourcesMachine>;
export type SourcesSnapshot = SnapshotFrom<typeof sourcesMachine>;

declare module './kit/systemRegistry' {
  interface SystemActors {
    sources: SourcesActor;
  }
}
