import { describe, expect, it } from 'vitest';
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
import type { Passage, Source } from '../../src/schemas/sources';

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
