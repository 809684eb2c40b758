import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createActor, fromPromise, setup } from 'xstate';
import type { EditorActorRef } from '../../src/machines/editor.machine';
import { sourcesMachine, type SourceAddition, type SourcesActor } from '../../src/machines/sources.machine';
import type { Agent } from '../../src/schemas/agents';
import type { Passage, Source } from '../../src/schemas/sources';
import { agentFixture, editorWithFakes, fakeAgentApi, fakeMicrophone, settle } from './editorHarness';

// The editor's Knowledge section: the agent's own sources are ticked from what the server answered, a tick changes
// them, 'Add sources' goes through the person's sources chart (systemId 'sources') and ticks the file once read —
// for this agent only, not for the next discussion — and Update Agent sends them as `source_ids` (only when they
// changed, so a plain rename does not rewrite them).

const source = (id: string): Source => ({
  id,
  name: `${id}.md`,
  kind: 'markdown',
  pages: 1,
  passages: 1,
  status: 'ready',
  url: null,
  bytes: 10,
  created_at: '2026-11-28T00:00:00.000Z',
});

function start(agent: Agent) {
  const api = fakeAgentApi();
  api.loadAgent.answer(() => agent);
  const added: string[] = [];
  const sources = sourcesMachine.provide({
    actors: {
      loadSources: fromPromise(async () => [source('a'), source('b')]),
      addSource: fromPromise(
        async ({ input }: { input: { addition: SourceAddition; progress: (fraction: number | null) => void } }) => {
          added.push(input.addition.name);
          return source('new');
        },
      ),
      removeSource: fromPromise(async ({ input }: { input: { id: string } }) => ({ id: input.id })),
      loadPassage: fromPromise<Passage, { sourceId: string; passageId: string }>(async () => {
        throw new Error('unused');
      }),
    },
  });
  const editor = editorWithFakes(api, fakeMicrophone().logic);
  const root = createActor(
    setup({ actors: { editor, sources } }).createMachine({
      invoke: [
        { id: 'sources', systemId: 'sources', src: 'sources' },
        { id: 'editor', src: 'editor', input: { mode: 'edit', agentId: agent.id } },
      ],
    }),
  ).start();
  const children = root.getSnapshot().children;
  return {
    api,
    added,
    editor: children.editor as EditorActorRef,
    sources: children.sources as SourcesActor,
  };
}

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

describe('editor: Knowledge', () => {
  it("ticks the agent's own sources, saves a change as source_ids and nothing when unchanged", async () => {
    const { editor, api } = start({ ...agentFixture, source_ids: ['a'] });
    await settle();
    expect(editor.getSnapshot().context.sourceIds).toEqual(['a']);

    editor.send({ type: 'editor.submit' });
    await settle();
    expect(api.updateAgent.calls[0].body).not.toHaveProperty('source_ids');

    editor.send({ type: 'editor.knowledge.toggle', id: 'b', on: true });
    editor.send({ type: 'editor.knowledge.toggle', id: 'a', on: false });
    expect(editor.getSnapshot().context.sourceIds).toEqual(['b']);
    editor.send({ type: 'editor.submit' });
    await settle();
    expect(api.updateAgent.calls[1].body).toMatchObject({ source_ids: ['b'] });
    // The answer is what the drawer shows next.
    expect(editor.getSnapshot().context.sourceIds).toEqual(['b']);
  });

  it('adds files through the sources chart and ticks them for this agent, not for the discussion', async () => {
    const { editor, sources, added, api } = start({ ...agentFixture, source_ids: [] });
    await settle();
    editor.send({ type: 'editor.knowledge.add', files: [new File(['# Notes'], 'notes.md')] });
    await settle();
    await settle();
    expect(added).toEqual(['notes.md']);
    expect(sources.getSnapshot().context.sources.map((s) => s.id)).toContain('new');
    expect(sources.getSnapshot().context.attached).toEqual([]);
    expect(editor.getSnapshot().context.sourceIds).toEqual(['new']);
    editor.send({ type: 'editor.submit' });
    await settle();
    expect(api.updateAgent.calls[0].body).toMatchObject({ source_ids: ['new'] });
  });
});
