// @vitest-environment jsdom
// The sources views that say what a click will do: the panel's Sources section during a run says that what is
// added then is read from the next discussion; the Research tab's 'Sources cited' names each source, who cited it
// how often, and opens a passage in the sources chart.
import { cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { createActor, fromPromise } from 'xstate';
import { sourcesMachine } from '../../src/machines/sources.machine';
import { citedSources } from '../../src/model/citedSources';
import type { EmbeddingSettings, Passage, Source } from '../../src/schemas/sources';
import { CitedSources } from '../../src/ui/discussion/sources/CitedSources';
import { SourcesSection } from '../../src/ui/discussion/sources/SourcesSection';
import { AppActorContext } from '../../src/ui/AppContext';

afterEach(cleanup);

const source: Source = {
  id: 's1',
  name: 'plan.pdf',
  kind: 'pdf',
  pages: 3,
  passages: 4,
  status: 'ready',
  url: null,
  bytes: 10,
  created_at: '2026-11-28T00:00:00.000Z',
};

const sourcesActor = () =>
  createActor(
    sourcesMachine.provide({
      actors: {
        loadSources: fromPromise(async () => [source]),
        addSource: fromPromise(async () => source),
        removeSource: fromPromise(async ({ input }: { input: { id: string } }) => ({ id: input.id })),
        loadPassage: fromPromise<Passage, { sourceId: string; passageId: string }>(
          () => new Promise<Passage>(() => {}),
        ),
      },
    }),
  ).start();

describe('Sources section', () => {
  it('says during a run that additions are read by the running discussion from its next turn', async () => {
    const actor = sourcesActor();
    const { rerender } = render(<SourcesSection sources={actor} />);
    await screen.findByText(/1 of 1 read by the agents|0 of 1 read by the agents/);
    expect(screen.queryByText(/read from the next/)).toBeNull();
    rerender(<SourcesSection sources={actor} running />);
    expect(
      screen.getByText(/What you add or tick now is read by the running discussion from its next turn/),
    ).toBeTruthy();
    expect(screen.getByText(/of 1 ticked$/)).toBeTruthy();
  });
});

describe("Sources section's 'Search by meaning with'", () => {
  const settings = (over: Partial<EmbeddingSettings> = {}): EmbeddingSettings => ({
    model: null,
    label: null,
    dimensions: null,
    available: true,
    candidates: [{ id: '@ollama/nomic-embed-text', label: 'Local Ollama · nomic-embed-text' }],
    ...over,
  });
  const embeddingActor = (read: EmbeddingSettings, save: (model: string | null) => Promise<EmbeddingSettings>) =>
    createActor(
      sourcesMachine.provide({
        actors: {
          loadSources: fromPromise(async () => [source]),
          loadEmbedding: fromPromise(async () => read),
          saveEmbedding: fromPromise(({ input }: { input: { model: string | null } }) => save(input.model)),
        },
      }),
    ).start();

  it('offers words only and the embedding models, is busy while saving, and says why a model was refused', async () => {
    let refuse: (e: Error) => void = () => {};
    const actor = embeddingActor(
      settings(),
      () =>
        new Promise((_, reject) => {
          refuse = reject;
        }),
    );
    render(<SourcesSection sources={actor} />);
    const select = (await screen.findByLabelText('Search by meaning with')) as HTMLSelectElement;
    expect([...select.options].map((o) => o.textContent)).toEqual(['Words only', 'Local Ollama · nomic-embed-text']);
    expect(select.value).toBe('');
    fireEvent.change(select, { target: { value: '@ollama/nomic-embed-text' } });
    expect(select.disabled).toBe(true);
    expect(select.value).toBe('@ollama/nomic-embed-text');
    expect(screen.getByRole('status').textContent).toMatch(/Checking that it embeds/);
    refuse(new Error('This model cannot embed text: the model answered 404.'));
    expect((await screen.findByRole('alert')).textContent).toBe(
      'This model cannot embed text: the model answered 404.',
    );
    expect(select.disabled).toBe(false);
    expect(select.value).toBe('');
  });

  it('says that search by meaning needs pgvector, with no select, when the server has none', async () => {
    const actor = embeddingActor(settings({ available: false }), async () => settings());
    render(<SourcesSection sources={actor} />);
    expect(await screen.findByText('Search by meaning needs pgvector on this server.')).toBeTruthy();
    expect(screen.queryByLabelText('Search by meaning with')).toBeNull();
  });
});

describe('Sources cited', () => {
  it('names who cited each source how often, and a passage button opens it in the sources chart', () => {
    const actor = sourcesActor();
    const c = (passage: string, page: number) => ({
      label: 'S1',
      source_id: 's1',
      source_name: 'plan.pdf',
      passage_id: passage,
      page,
      quote: 'Route 12 carried 4,217 riders.',
      verified: true,
    });
    const cited = citedSources([
      { agent: 'Ada', citations: [c('p1', 2)] },
      { agent: 'Bo', citations: [c('p1', 2)] },
      { agent: 'Ada', citations: [c('p2', 3)] },
    ]);
    const app = { getSnapshot: () => ({ children: { sources: actor } }), subscribe: () => ({ unsubscribe() {} }) };
    render(
      <AppActorContext.Provider value={app as never}>
        <CitedSources cited={cited} />
      </AppActorContext.Provider>,
    );
    const region = screen.getByRole('region', { name: 'Sources cited' });
    expect(within(region).getByText(/cited 3 times/)).toBeTruthy();
    expect(region.textContent).toContain('Ada ×2, Bo ×1');
    fireEvent.click(within(region).getByRole('button', { name: 'Open plan.pdf p. 3' }));
    expect(actor.getSnapshot().context.passage).toMatchObject({ quote: 'Route 12 carried 4,217 riders.' });
    expect(actor.getSnapshot().matches({ passage: 'loading' })).toBe(true);
  });
});
