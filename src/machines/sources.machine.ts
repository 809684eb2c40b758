// The person's sources (docs/sources.md) as a discussion panel shows them: the list (loading → ready | failed),
// files and page addresses being added one at a time with the upload's progress, a removal, and which sources the
// next discussion reads ('attached'). The panels read `attached` when they start, and a source ticked or added
// during a run is told to them (the running one sends it); the feed's citation chips open a passage through the
// passage region. The embedding region holds the model passages are embedded with (searched by meaning as well as
// words) and saves a new choice; while any source is being embedded the list is read again every few seconds, so
// 'embedding…' turns into 'by words and meaning' without a reload.
import {
  assign,
  raise,
  enqueueActions,
  fromPromise,
  not,
  setup,
  type ActorRefFrom,
  type AnyActorRef,
  type SnapshotFrom,
} from 'xstate';
import { SOURCES_EMBEDDING_POLL_MS } from '../schemas/constants';
import type { EmbeddingSettings, Passage, Source } from '../schemas/sources';
import { errorText } from '../model/modelsForm';
import { WORDS_ONLY } from '../model/embeddingOptions';
import { attachedIds, type SourceAddedEvent } from '../model/sourcesList';
import { notProvided, tellPanelsOfSources } from './kit/actorKit';

/**
 * One addition waiting or under way: a file, or a page's address. `replyTo` is the chart that asked for it (the
 * agent editor's Knowledge section): it hears 'sources.added' and the source is not ticked for the discussion,
 * since it was added for one agent only.
 */
export type SourceAddition = ({ file: File; name: string } | { url: string; name: string }) & {
  replyTo?: AnyActorRef;
};

export interface SourcesContext {
  sources: Source[];
  listError: string | null;
  queue: SourceAddition[];
  /** 0–1 of the current file's upload; null while the server reads it (or for a page). */
  progress: number | null;
  /** The last addition that failed, with why (the server's sentence). */
  addError: { name: string; message: string } | null;
  attached: string[];
  passage: { passage: Passage | null; quote: string; sourceName: string; error: string | null } | null;
  /** The embedding model and its candidates (GET /sources/embedding); null until read. */
  embedding: EmbeddingSettings | null;
  /** Why the last choice was refused (the server's sentence: the model could not embed the test sentence), or why
   * the settings could not be read. */
  embeddingError: string | null;
  /** The model being checked and saved ('' for words only), shown in the select until the server answers. */
  embeddingSaving: string | null;
}

export type SourcesEvent =
  | { type: 'sources.refresh' }
  | { type: 'sources.add.files'; files: File[]; replyTo?: AnyActorRef }
  | { type: 'sources.add.url'; url: string }
  | { type: 'sources.add.progress'; fraction: number | null }
  | { type: 'sources.add.dismiss' }
  | { type: 'sources.remove'; id: string }
  | { type: 'sources.attach'; id: string; on: boolean }
  | { type: 'sources.passage.open'; sourceId: string; passageId: string; quote: string; sourceName: string }
  | { type: 'sources.passage.close' }
  /** A model id of the person's connections, or null: words only. */
  | { type: 'sources.embedding.choose'; model: string | null };

const anyEmbedding = ({ context }: { context: SourcesContext }) =>
  context.sources.some((s) => s.embedding === 'embedding');

export const sourcesMachine = setup({
  types: { context: {} as SourcesContext, events: {} as SourcesEvent },
  actors: {
    loadSources: fromPromise<Source[]>(notProvided('sources', 'loadSources')),
    /** Adds one file or page; calls `progress` as the file uploads (the chart hears it as 'sources.add.progress'). */
    addSource: fromPromise<Source, { addition: SourceAddition; progress: (fraction: number | null) => void }>(
      notProvided('sources', 'addSource'),
    ),
    removeSource: fromPromise<{ id: string }, { id: string }>(notProvided('sources', 'removeSource')),
    loadPassage: fromPromise<Passage, { sourceId: string; passageId: string }>(notProvided('sources', 'loadPassage')),
    loadEmbedding: fromPromise<EmbeddingSettings>(notProvided('sources', 'loadEmbedding')),
    saveEmbedding: fromPromise<EmbeddingSettings, { model: string | null }>(notProvided('sources', 'saveEmbedding')),
  },
  guards: { anyEmbedding },
  delays: { embeddingPoll: SOURCES_EMBEDDING_POLL_MS },
}).createMachine({
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
    'sources.attach': {
      actions: enqueueActions(({ context, event, enqueue, system }) => {
        enqueue.assign({
          attached: event.on
            ? [...new Set([...context.attached, event.id])]
            : context.attached.filter((id) => id !== event.id),
        });
        // A running discussion reads a ticked source from its next turn; unticking leaves it (it is already read).
        if (event.on) tellPanelsOfSources({ system, enqueue }, [event.id]);
      }),
    },
    'sources.add.files': {
      actions: assign({
        queue: ({ context, event }) => [
          ...context.queue,
          ...event.files.map((file) => ({
            file,
            name: file.name,
            ...(event.replyTo ? { replyTo: event.replyTo } : {}),
          })),
        ],
        addError: null,
      }),
    },
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
              actions: enqueueActions(({ context, event, enqueue, system }) => {
                const { replyTo } = context.queue[0];
                if (replyTo)
                  enqueue.sendTo(replyTo, { type: 'sources.added', source: event.output } satisfies SourceAddedEvent);
                else tellPanelsOfSources({ system, enqueue }, [event.output.id]);
                enqueue.assign({
                  sources: [event.output, ...context.sources.filter((s) => s.id !== event.output.id)],
                  // A source added here is attached to the next discussion: it was added for it. One added for an
                  // agent (replyTo) is that agent's alone.
                  attached: replyTo ? context.attached : [...new Set([...context.attached, event.output.id])],
                  queue: context.queue.slice(1),
                  progress: null,
                });
              }),
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
