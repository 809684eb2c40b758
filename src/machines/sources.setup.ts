// The sources chart's vocabulary (the chart itself: sources.machine.ts): its context and events, the loads and saves
// it invokes (src/services/sourcesApi.ts), the poll delay, and the actions that tick a source and take an
// addition in and out of the queue (telling whoever asked for it). When each runs is the chart's business.
import { assertEvent, assign, enqueueActions, fromPromise, setup, type AnyActorRef } from 'xstate';
import { SOURCES_EMBEDDING_POLL_MS } from '../schemas/constants';
import type { EmbeddingSettings, Passage, Source } from '../schemas/sources';
import type { SourceAddedEvent } from '../model/sourcesList';
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

export const sourcesSetup = setup({
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
  actions: {
    attach: enqueueActions(({ context, event, enqueue, system }) => {
      assertEvent(event, 'sources.attach');
      enqueue.assign({
        attached: event.on
          ? [...new Set([...context.attached, event.id])]
          : context.attached.filter((id) => id !== event.id),
      });
      // A running discussion reads a ticked source from its next turn; unticking leaves it (it is already read).
      if (event.on) tellPanelsOfSources({ system, enqueue }, [event.id]);
    }),
    queueFiles: assign(({ context, event }) => {
      assertEvent(event, 'sources.add.files');
      const { files, replyTo } = event;
      return {
        queue: [...context.queue, ...files.map((file) => ({ file, name: file.name, ...(replyTo ? { replyTo } : {}) }))],
        addError: null,
      };
    }),
    /** The first addition is in: whoever asked for it hears so, and it leaves the queue. */
    takeAdded: enqueueActions(({ context, enqueue, system }, params: { source: Source }) => {
      const { source } = params;
      const { replyTo } = context.queue[0];
      if (replyTo) enqueue.sendTo(replyTo, { type: 'sources.added', source } satisfies SourceAddedEvent);
      else tellPanelsOfSources({ system, enqueue }, [source.id]);
      enqueue.assign({
        sources: [source, ...context.sources.filter((s) => s.id !== source.id)],
        // A source added here is attached to the next discussion: it was added for it. One added for an
        // agent (replyTo) is that agent's alone.
        attached: replyTo ? context.attached : [...new Set([...context.attached, source.id])],
        queue: context.queue.slice(1),
        progress: null,
      });
    }),
  },
});
