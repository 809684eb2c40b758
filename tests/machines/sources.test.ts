import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  createActor,
  fromCallback,
  fromPromise,
  setup,
  waitFor,
  type ActorRefFrom,
  type AnyActorRef,
  type EventObject,
} from 'xstate';
import { sourcesMachine, type SourceAddition } from '../../src/machines/sources.machine';
import { SOURCES_EMBEDDING_POLL_MS } from '../../src/schemas/constants';
import type { EmbeddingSettings, Passage, Source } from '../../src/schemas/sources';

// The sources chart: files added one at a time with their progress, a failure said with the file's name and the
// rest still added, the new source attached to the next discussion, a removal that detaches, and the passage
// dialog's load.

const source = (id: string, name: string): Source => ({
  id,
  name,
  kind: 'markdown',
  pages: 1,
  passages: 2,
  status: 'ready',
  url: null,
  bytes: 10,
  created_at: '2026-11-28T00:00:00.000Z',
});
const file = (name: string) => new File(['x'], name);

function start(opts: { fail?: string; panel?: EventObject[] } = {}) {
  const seen: string[] = [];
  let release: (() => void) | null = null;
  const logic = sourcesMachine.provide({
    actors: {
      loadSources: fromPromise(async () => [source('old', 'old.md')]),
      addSource: fromPromise(
        async ({ input }: { input: { addition: SourceAddition; progress: (f: number | null) => void } }) => {
          seen.push(input.addition.name);
          input.progress(0.5);
          await new Promise<void>((r) => {
            release = r;
          });
          if (input.addition.name === opts.fail) throw new Error('This PDF has no text layer');
          return source(`id-${input.addition.name}`, input.addition.name);
        },
      ),
      removeSource: fromPromise(async ({ input }: { input: { id: string } }) => ({ id: input.id })),
      loadPassage: fromPromise(
        async ({ input }: { input: { sourceId: string; passageId: string } }): Promise<Passage> => ({
          id: input.passageId,
          source_id: input.sourceId,
          page: 3,
          heading: null,
          text: 'Route 12 carried 4,217 riders.',
        }),
      ),
    },
  });
  // With `panel`: the chart runs beside a stand-in for the standard panel (registered as the app registers it),
  // which keeps what it hears.
  const heard = opts.panel;
  const actor: ActorRefFrom<typeof sourcesMachine> = heard
    ? (createActor(
        setup({
          actors: {
            sources: logic,
            panel: fromCallback<EventObject>(({ receive }) => receive((e) => heard.push(e))),
          },
        }).createMachine({
          invoke: [
            { src: 'panel', systemId: 'standardDiscussion' },
            { src: 'sources', id: 'sources', systemId: 'sources' },
          ],
        }),
      )
        .start()
        .system.get('sources') as AnyActorRef as ActorRefFrom<typeof sourcesMachine>)
    : createActor(logic).start();
  const finish = async () => {
    await waitFor(actor, () => release !== null);
    const r = release!;
    release = null;
    r();
  };
  return { actor, seen, finish };
}

describe('sources chart', () => {
  it('adds files one at a time, reports progress, attaches each and says which one failed', async () => {
    const { actor, seen, finish } = start({ fail: 'scan.pdf' });
    await waitFor(actor, (s) => s.matches({ list: 'ready' }));
    actor.send({ type: 'sources.add.files', files: [file('a.md'), file('scan.pdf'), file('b.md')] });
    await waitFor(actor, (s) => s.context.progress === 0.5);
    expect(actor.getSnapshot().hasTag('adding')).toBe(true);
    expect(seen).toEqual(['a.md']);
    await finish();
    await finish();
    await waitFor(actor, (s) => s.context.addError !== null);
    expect(actor.getSnapshot().context.addError).toEqual({ name: 'scan.pdf', message: 'This PDF has no text layer' });
    await finish();
    await waitFor(actor, (s) => !s.hasTag('adding') && s.context.queue.length === 0);
    const { sources, attached } = actor.getSnapshot().context;
    expect(seen).toEqual(['a.md', 'scan.pdf', 'b.md']);
    expect(sources.map((s) => s.name)).toEqual(['b.md', 'a.md', 'old.md']);
    expect(attached).toEqual(['id-a.md', 'id-b.md']);
  });

  it('detaches a removed source and toggles attachment', async () => {
    const { actor } = start();
    await waitFor(actor, (s) => s.matches({ list: 'ready' }));
    actor.send({ type: 'sources.attach', id: 'old', on: true });
    expect(actor.getSnapshot().context.attached).toEqual(['old']);
    actor.send({ type: 'sources.remove', id: 'old' });
    await waitFor(actor, (s) => s.context.sources.length === 0);
    expect(actor.getSnapshot().context.attached).toEqual([]);
  });

  it('tells the panels of a source ticked or added for the discussion, never of one unticked', async () => {
    const panel: EventObject[] = [];
    const { actor, finish } = start({ panel });
    await waitFor(actor, (s) => s.matches({ list: 'ready' }));
    actor.send({ type: 'sources.attach', id: 'old', on: true });
    actor.send({ type: 'sources.attach', id: 'old', on: false });
    actor.send({ type: 'sources.add.files', files: [file('a.md')] });
    await finish();
    await waitFor(actor, (s) => s.context.queue.length === 0);
    expect(panel).toEqual([
      { type: 'sources.live.add', ids: ['old'] },
      { type: 'sources.live.add', ids: ['id-a.md'] },
    ]);
  });

  it('opens a passage with the quote to highlight, and closes it', async () => {
    const { actor } = start();
    actor.send({
      type: 'sources.passage.open',
      sourceId: 's',
      passageId: 'p',
      quote: '4,217 riders',
      sourceName: 'r.pdf',
    });
    await waitFor(actor, (s) => s.matches({ passage: 'open' }));
    expect(actor.getSnapshot().context.passage).toMatchObject({ quote: '4,217 riders', passage: { page: 3 } });
    actor.send({ type: 'sources.passage.close' });
    expect(actor.getSnapshot().context.passage).toBeNull();
  });
});

describe('sources chart: the embedding model', () => {
  afterEach(() => vi.useRealTimers());
  const settings = (model: string | null): EmbeddingSettings => ({
    model,
    label: model && 'Local Ollama · nomic-embed-text',
    dimensions: model ? 768 : null,
    available: true,
    candidates: [{ id: '@ollama/nomic-embed-text', label: 'Local Ollama · nomic-embed-text' }],
  });

  /** The server's list answers in turn (the last repeated); each GET is counted. */
  function startEmbedding(lists: Source['embedding'][][], saveError?: string) {
    let reads = 0;
    const saved: (string | null)[] = [];
    const actor = createActor(
      sourcesMachine.provide({
        actors: {
          loadSources: fromPromise(async (): Promise<Source[]> => {
            const states = lists[Math.min(reads, lists.length - 1)];
            reads += 1;
            return states.map((embedding, i) => ({ ...source(`s${i}`, `s${i}.md`), embedding }));
          }),
          loadEmbedding: fromPromise(async () => settings(null)),
          saveEmbedding: fromPromise(async ({ input }: { input: { model: string | null } }) => {
            saved.push(input.model);
            if (saveError) throw new Error(saveError);
            return settings(input.model);
          }),
        },
      }),
    ).start();
    return { actor, saved, reads: () => reads };
  }

  it('saves a chosen model, then reads the list again and keeps reading it while a source is embedding', async () => {
    vi.useFakeTimers();
    const { actor, saved, reads } = startEmbedding([['none'], ['embedding'], ['embedding'], ['ready']]);
    await vi.waitFor(() => expect(actor.getSnapshot().matches({ embedding: 'ready' })).toBe(true));
    expect(reads()).toBe(1);
    actor.send({ type: 'sources.embedding.choose', model: '@ollama/nomic-embed-text' });
    await vi.waitFor(() => expect(reads()).toBe(2));
    expect(saved).toEqual(['@ollama/nomic-embed-text']);
    expect(actor.getSnapshot().context.embedding?.model).toBe('@ollama/nomic-embed-text');
    await vi.waitFor(() => expect(actor.getSnapshot().matches({ list: { ready: 'polling' } })).toBe(true));
    await vi.advanceTimersByTimeAsync(SOURCES_EMBEDDING_POLL_MS);
    expect(reads()).toBe(3);
    await vi.advanceTimersByTimeAsync(SOURCES_EMBEDDING_POLL_MS);
    expect(reads()).toBe(4);
    expect(actor.getSnapshot().context.sources[0].embedding).toBe('ready');
    // None is embedding now: the list is not read again.
    expect(actor.getSnapshot().matches({ list: { ready: 'settled' } })).toBe(true);
    await vi.advanceTimersByTimeAsync(SOURCES_EMBEDDING_POLL_MS * 5);
    expect(reads()).toBe(4);
  });

  it("keeps the old choice and says the server's reason when a model cannot embed", async () => {
    const reason = 'This model cannot embed text: the model answered 404.';
    const { actor, reads } = startEmbedding([['none']], reason);
    await waitFor(actor, (s) => s.matches({ embedding: 'ready' }) && s.matches({ list: 'ready' }));
    actor.send({ type: 'sources.embedding.choose', model: '@ollama/llama3' });
    expect(actor.getSnapshot().hasTag('embeddingSaving')).toBe(true);
    await waitFor(actor, (s) => !s.hasTag('embeddingSaving'));
    const { embedding, embeddingError } = actor.getSnapshot().context;
    expect(embeddingError).toBe(reason);
    expect(embedding?.model).toBeNull();
    expect(reads()).toBe(1);
    // The next choice clears the sentence.
    actor.send({ type: 'sources.embedding.choose', model: null });
    expect(actor.getSnapshot().context.embeddingError).toBeNull();
  });
});
