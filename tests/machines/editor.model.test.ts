// Model-based paths for the editor's form and models (xstate/graph; the reference audio: referenceAudio.model.test.ts). The chart is walked with the events its actors would
// produce (xstate.done/error.actor.<id>, the `after` timers); for each state value one shortest path is
// replayed against a running editor whose I/O actors are held promises settled by those same events.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { initialTransition, transition, type AnyEventObject } from 'xstate';
import { TestModel } from 'xstate/graph';
import {
  editorMachine,
  type EditorEvent,
  type EditorInput,
  type EditorSnapshot,
} from '../../src/machines/editor.machine';
import { EDITOR_CLOSE_AFTER_CREATE_MS } from '../../src/schemas/constants';
import { agentDeleteMessage } from '../../src/model/agentFailures';
import { bannerError } from '../../src/model/bannerRequest';
import { agentFixture, httpError, modelsFixture, settle, startEditor, type FakeAgentApi } from './editorHarness';

type ActorId = keyof FakeAgentApi;
type DoneEvent = { type: `xstate.done.actor.${ActorId}`; output: unknown };
type ErrorEvent = { type: `xstate.error.actor.${ActorId}`; error: unknown };
type AfterEvent = { type: `xstate.after.${string}` };
type ModelEvent = EditorEvent | DoneEvent | ErrorEvent | AfterEvent;

// The delete goes through the agentDeletion child, which answers with events of its own: these stand for its
// deleteAgent call succeeding or failing (the replay settles that call; the child then sends them).
const DELETE_FAILURE = httpError(500);
const deleted: ModelEvent = { type: 'agent.deleted', agentId: agentFixture.id };
const deleteFailed: ModelEvent = bannerError(agentDeleteMessage(DELETE_FAILURE));
const childAnswers = new Set<string>([deleted.type, deleteFailed.type]);

const done = (id: ActorId, output: unknown): DoneEvent => ({ type: `xstate.done.actor.${id}`, output });
const fail = (id: ActorId, error: unknown = httpError(500)): ErrorEvent => ({
  type: `xstate.error.actor.${id}`,
  error,
});

const AFTER: Record<string, { type: `xstate.after.${string}`; ms: number }> = {
  closeAfterCreate: {
    type: 'xstate.after.closeAfterCreate.editor.open.form.created',
    ms: EDITOR_CLOSE_AFTER_CREATE_MS,
  },
};

const formEvents: ModelEvent[] = [
  { type: 'editor.field', field: 'name', value: 'Ada' },
  { type: 'editor.field', field: 'name', value: '   ' },
  { type: 'editor.field', field: 'role', value: 'Analyst' },
  { type: 'editor.field', field: 'prompt', value: 'Think.' },
  { type: 'editor.field', field: 'model', value: 'offline' },
  { type: 'editor.submit' },
  { type: 'editor.retry' },
  { type: 'editor.delete' },
  { type: 'editor.delete.confirm' },
  { type: 'editor.delete.cancel' },
  { type: 'editor.close' },
  done('loadModels', modelsFixture),
  fail('loadModels'),
  done('loadAgent', agentFixture),
  fail('loadAgent', httpError(404, 'Agent not found')),
  done('createAgent', { ...agentFixture, id: 'new-id' }),
  fail('createAgent'),
  done('updateAgent', agentFixture),
  fail('updateAgent'),
  deleted,
  deleteFailed,
  { type: AFTER.closeAfterCreate.type },
];

// The walk tells states apart by value plus what the guards read; messages would only multiply states.
const serializeState = (s: EditorSnapshot) =>
  JSON.stringify([
    s.value,
    s.status,
    (['name', 'role', 'prompt', 'model'] as const).map((f) => s.context.fields[f].trim() !== ''),
  ]);

/** Timers fire and actors answer only while they exist; the model is offered exactly those events. */
function canHappen(s: EditorSnapshot, e: ModelEvent): boolean {
  if (s.status !== 'active') return false;
  if (childAnswers.has(e.type)) return s.hasTag('deleting') && 'agentDeletion' in s.children;
  const m = /^xstate\.(?:done|error)\.actor\.(.+)$/.exec(e.type);
  if (m) return m[1] in s.children;
  const after = Object.values(AFTER).find((a) => a.type === e.type);
  if (after) {
    const stateId = after.type.split('.').slice(3).join('.');
    return s._nodes.some((n) => n.id === stateId);
  }
  return true;
}

// Without a parent to tell, the notifications are no-ops in the model (the replay runs under a parent).
const modelMachine = editorMachine.provide({
  actions: { notifySaved: () => undefined, notifyDeleted: () => undefined },
});

function pathsFor(input: EditorInput, events: ModelEvent[]) {
  const model = new TestModel(modelMachine, {
    input,
    events,
    serializeState: serializeState as never,
    filterEvents: canHappen as never,
  } as never);
  const all = model.getShortestPaths({ allowDuplicatePaths: true });
  // One (shortest) path per distinct state value keeps the suite small while still reaching every state.
  const byValue = new Map<string, (typeof all)[number]>();
  for (const p of all) {
    const key = JSON.stringify([(p.state as EditorSnapshot).value, (p.state as EditorSnapshot).status]);
    const seen = byValue.get(key);
    if (!seen || p.steps.length < seen.steps.length) byValue.set(key, p);
  }
  return [...byValue.values()];
}

function replay(input: EditorInput) {
  const h = startEditor(input, (api) => Object.values(api).forEach((fake) => fake.hold()));
  const exec: Record<string, (step: { event: AnyEventObject }) => Promise<void>> = {};
  const send = async ({ event }: { event: AnyEventObject }) => {
    h.editor.send(event as EditorEvent);
    await settle();
  };
  for (const e of formEvents) {
    const m = /^xstate\.(done|error)\.actor\.(.+)$/.exec(e.type);
    const after = Object.values(AFTER).find((a) => a.type === e.type);
    if (childAnswers.has(e.type)) {
      exec[e.type] = async () => {
        if (e.type === deleted.type) h.api.deleteAgent.resolve({ success: true });
        else h.api.deleteAgent.reject(DELETE_FAILURE);
        await settle();
      };
    } else if (m) {
      const fake = h.api[m[2] as ActorId] as { resolve: (v: unknown) => void; reject: (e: unknown) => void };
      exec[e.type] = async ({ event }) => {
        if (m[1] === 'done') fake.resolve((event as DoneEvent).output);
        else fake.reject((event as ErrorEvent).error);
        await settle();
      };
    } else if (after) {
      exec[e.type] = async () => {
        await vi.advanceTimersByTimeAsync(after.ms);
      };
    } else {
      exec[e.type] = send;
    }
  }
  return { ...h, exec };
}

// Paths are found on a coarse state key, so the snapshot a path ends in is recomputed exactly (pure
// `transition` over the same events) and that prediction is what the running editor must match.
function check(paths: ReturnType<typeof pathsFor>, input: EditorInput) {
  for (const path of paths) {
    it(path.description.replace(/\(\{.*?\}\)/g, ''), async () => {
      const { editor, exec, root } = replay(input);
      let [predicted] = initialTransition(modelMachine, input);
      const predicting = Object.fromEntries(
        Object.entries(exec).map(([type, run]) => [
          type,
          async (step: { event: AnyEventObject }) => {
            [predicted] = transition(modelMachine, predicted, step.event as never);
            await run(step);
          },
        ]),
      );
      await settle();
      await path.test({
        events: predicting as never,
        states: {
          '*': () => {
            const got = editor.getSnapshot();
            expect(got.status).toBe(predicted.status);
            if (predicted.status === 'active') expect(got.value).toEqual(predicted.value);
            expect(got.context.formError).toEqual(predicted.context.formError);
            expect(got.context.loadError).toEqual(predicted.context.loadError);
            expect(got.context.fields).toEqual(predicted.context.fields);
          },
        },
      });
      root.stop();
    });
  }
}

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

describe('editor model: create form', () => {
  const input: EditorInput = { mode: 'create' };
  const paths = pathsFor(input, formEvents);
  it('reaches creating, created and closed', () => {
    const values = paths.map((p) => JSON.stringify((p.state as EditorSnapshot).value));
    expect(values.some((v) => v.includes('"creating"'))).toBe(true);
    expect(values.some((v) => v.includes('"created"'))).toBe(true);
    expect(paths.some((p) => (p.state as EditorSnapshot).status === 'done')).toBe(true);
  });
  check(paths, input);
});

describe('editor model: edit form', () => {
  const input: EditorInput = { mode: 'edit', agentId: agentFixture.id };
  const paths = pathsFor(input, formEvents);
  it('reaches loading, loadFailed, updating, deletion (confirming) and deleting', () => {
    const values = paths.map((p) => JSON.stringify((p.state as EditorSnapshot).value));
    for (const name of ['loading', 'loadFailed', 'updating', 'deletion', 'confirming', 'deleting']) {
      expect(values.some((v) => v.includes(`"${name}"`))).toBe(true);
    }
  });
  check(paths, input);
});
