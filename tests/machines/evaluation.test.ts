import { afterEach, describe, expect, it, vi } from 'vitest';
import { createActor, createMachine, fromPromise, spawnChild, type ActorRefFrom } from 'xstate';
import { evaluationMachine, formRequest, DEFAULT_EVAL_FORM } from '../../src/machines/evaluation.machine';
import * as sel from '../../src/machines/evaluation.selectors';
import type { EvalFileCheck, EvalRun } from '../../src/schemas/eval';
import type { ModelOption } from '../../src/schemas/system';
import { EVAL_POLL_MS } from '../../src/schemas/evalConstants';

// The Evaluate chart with scripted actors: it loads the runs and models on open, preselects a real model, starts a
// run, polls only while one runs, checks a file before it may start, and exports the chosen run.

const run = (over: Partial<EvalRun> = {}): EvalRun => ({
  id: 'r1',
  name: 'Arithmetic',
  created_at: '2026-01-01T00:00:00.000Z',
  status: 'running',
  detail: null,
  tasks: { kind: 'arithmetic', label: 'Arithmetic (seed 1, 20 questions)', seed: 1 },
  question_count: 20,
  models: ['@c/m'],
  single_model: '@c/m',
  judge_model: '@c/m',
  methods: ['one_answer'],
  rounds: 2,
  equal_tokens: true,
  budget_tokens: null,
  tokens_used: 0,
  eta_seconds: null,
  results: [],
  ...over,
});

function start(opts: { runs?: EvalRun[][]; check?: EvalFileCheck } = {}) {
  const calls = { list: 0, start: [] as unknown[], exports: [] as unknown[], stop: [] as unknown[] };
  const lists = opts.runs ?? [[]];
  const actor = createActor(
    evaluationMachine.provide({
      actors: {
        loadRuns: fromPromise(async () => lists[Math.min(calls.list++, lists.length - 1)]),
        loadModels: fromPromise(async () => [
          { value: 'offline', label: 'Offline demo', offline: true },
          { value: '@c/m', label: 'Home · m', offline: false },
        ]),
        checkFile: fromPromise(async () => ({
          text: '{"question":"q","answer":"a"}',
          check: opts.check ?? { ok: true, count: 1, errors: [] },
        })),
        startRun: fromPromise(async ({ input }) => {
          calls.start.push(input);
          return run({ id: 'new' });
        }),
        stopRun: fromPromise(async ({ input }) => {
          calls.stop.push(input);
          return run({ id: input.id, status: 'stopped' });
        }),
        resumeRun: fromPromise(async ({ input }) => run({ id: input.id })),
        deleteRun: fromPromise<unknown, { id: string }>(async () => null),
        saveExport: fromPromise(async ({ input }) => void calls.exports.push(input)),
      },
    }),
  );
  actor.start();
  return { actor, calls };
}

afterEach(() => vi.useRealTimers());

describe('evaluation chart', () => {
  it('opens, loads, preselects the first real model, and polls only while a run runs', async () => {
    vi.useFakeTimers();
    const { actor, calls } = start({ runs: [[run()], [run({ status: 'done' })]] });
    expect(sel.selectIsEvaluationOpen(actor.getSnapshot())).toBe(false);
    actor.send({ type: 'evaluation.open' });
    await vi.advanceTimersByTimeAsync(0);
    expect(sel.selectEvalForm(actor.getSnapshot()).models).toEqual(['@c/m']);
    expect(sel.selectSelectedRun(actor.getSnapshot())?.id).toBe('r1');
    expect(calls.list).toBe(1);
    await vi.advanceTimersByTimeAsync(EVAL_POLL_MS);
    expect(calls.list).toBe(2);
    expect(sel.selectSelectedRun(actor.getSnapshot())?.status).toBe('done');
    // Nothing runs any more: no further polls.
    await vi.advanceTimersByTimeAsync(EVAL_POLL_MS * 5);
    expect(calls.list).toBe(2);
    actor.send({ type: 'evaluation.close' });
    expect(sel.selectIsEvaluationOpen(actor.getSnapshot())).toBe(false);
  });

  it('starts a run from the form and selects it; stop and export name the run', async () => {
    const { actor, calls } = start();
    actor.send({ type: 'evaluation.open' });
    await vi.waitFor(() => expect(sel.selectEvalForm(actor.getSnapshot()).models).toEqual(['@c/m']));
    actor.send({
      type: 'evaluation.form.change',
      patch: { methods: ['one_answer', 'round_table'], models: ['@c/m', '@c/m'], budget: 5000 },
    });
    expect(sel.selectCanStart(actor.getSnapshot())).toBe(true);
    actor.send({ type: 'evaluation.start' });
    await vi.waitFor(() => expect(sel.selectSelectedRun(actor.getSnapshot())?.id).toBe('new'));
    expect(calls.start[0]).toEqual({
      tasks: { kind: 'arithmetic', seed: 1, size: 20 },
      models: ['@c/m', '@c/m'],
      methods: ['one_answer', 'round_table'],
      rounds: 2,
      samples: 5,
      equal_tokens: true,
      budget_tokens: 5000,
    });
    actor.send({ type: 'evaluation.stop', id: 'new' });
    await vi.waitFor(() => expect(sel.selectSelectedRun(actor.getSnapshot())?.status).toBe('stopped'));
    expect(calls.stop).toEqual([{ id: 'new' }]);
    actor.send({ type: 'evaluation.export', id: 'new', format: 'csv' });
    await vi.waitFor(() => expect(calls.exports).toHaveLength(1));
    expect(calls.exports[0]).toMatchObject({ format: 'csv', run: { id: 'new' } });
  });

  it('a file must be checked and clean before a run can start', async () => {
    const bad = start({ check: { ok: false, count: 0, errors: [{ line: 2, message: 'not valid JSON' }] } });
    bad.actor.send({ type: 'evaluation.open' });
    bad.actor.send({ type: 'evaluation.form.change', patch: { methods: ['one_answer'] } });
    bad.actor.send({ type: 'evaluation.file.chosen', name: 'mine.jsonl', file: new Blob(['x']) });
    await vi.waitFor(() => expect(sel.selectEvalFileCheck(bad.actor.getSnapshot())?.errors).toHaveLength(1));
    expect(sel.selectCanStart(bad.actor.getSnapshot())).toBe(false);
    expect(sel.selectStartBlocker(bad.actor.getSnapshot())).toBe('Fix the file’s errors first.');

    const good = start();
    good.actor.send({ type: 'evaluation.open' });
    await vi.waitFor(() => expect(sel.selectEvalForm(good.actor.getSnapshot()).models).toEqual(['@c/m']));
    good.actor.send({ type: 'evaluation.form.change', patch: { models: ['@c/m', '@c/m'] } });
    good.actor.send({ type: 'evaluation.file.chosen', name: 'mine.jsonl', file: new Blob(['x']) });
    await vi.waitFor(() => expect(sel.selectEvalFileCheck(good.actor.getSnapshot())?.ok).toBe(true));
    expect(sel.selectCanStart(good.actor.getSnapshot())).toBe(true);
  });

  it('the demo model cannot be chosen, and a panel needs two seats or more: Start is disabled and says why', async () => {
    const t = start();
    t.actor.send({ type: 'evaluation.open' });
    // Only the real model is preselected, never the demo model.
    await vi.waitFor(() => expect(sel.selectEvalForm(t.actor.getSnapshot()).models).toEqual(['@c/m']));
    const blocker = () => sel.selectStartBlocker(t.actor.getSnapshot());
    // The default methods hold a round table: one seat is not a panel.
    expect(sel.selectCanStart(t.actor.getSnapshot())).toBe(false);
    expect(blocker()).toMatch(/^A panel \(Round table, Council, Debate\) needs two seats or more/);
    t.actor.send({ type: 'evaluation.form.change', patch: { methods: ['chain_of_thought'] } });
    expect(blocker()).toBeNull();
    expect(sel.selectCanStart(t.actor.getSnapshot())).toBe(true);
    t.actor.send({ type: 'evaluation.form.change', patch: { models: ['@c/m', 'offline'], methods: ['round_table'] } });
    expect(blocker()).toBe('Agent 2: the offline demo model cannot answer questions; choose another model.');
    expect(sel.selectCanStart(t.actor.getSnapshot())).toBe(false);
    t.actor.send({ type: 'evaluation.form.change', patch: { models: ['@c/m', '@c/m'] } });
    expect(sel.selectCanStart(t.actor.getSnapshot())).toBe(true);
  });

  it('the form makes no request without models or methods', () => {
    expect(formRequest({ ...DEFAULT_EVAL_FORM, models: [] })).toBeNull();
    expect(formRequest({ ...DEFAULT_EVAL_FORM, models: ['m'], methods: [] })).toBeNull();
    expect(formRequest({ ...DEFAULT_EVAL_FORM, models: ['m'], taskKind: 'file' })).toBeNull();
  });
});

// Addresses (issue 43): the dialog reports its run to the navigation actor, opens at the run an address names, and
// says when that run is not this user's.
describe('evaluation and the address', () => {
  const withNavigation = (runs: EvalRun[]) => {
    const reported: unknown[] = [];
    const navigation = createMachine({ on: { '*': { actions: ({ event }) => reported.push(event) } } });
    const logic = evaluationMachine.provide({
      actors: {
        loadRuns: fromPromise(async () => runs),
        loadModels: fromPromise(async (): Promise<ModelOption[]> => []),
      },
    });
    const root = createActor(
      createMachine({
        entry: [
          spawnChild(navigation, { systemId: 'navigation' }),
          spawnChild(logic, { id: 'evaluation', systemId: 'evaluation' }),
        ],
      }),
    ).start();
    const actor = root.system.get('evaluation') as ActorRefFrom<typeof evaluationMachine>;
    return { actor, reported };
  };
  const settle = () => new Promise((r) => setTimeout(r, 0));

  it('opens at the run an address names and reports it; a run not in the list is missing', async () => {
    const { actor, reported } = withNavigation([run({ id: 'r1' }), run({ id: 'r2', status: 'done' })]);
    actor.send({ type: 'evaluation.visit', id: 'r2' });
    await settle();
    expect(actor.getSnapshot().context.selectedId).toBe('r2');
    expect(reported).toEqual([{ type: 'nav.follow', route: { kind: 'evaluation', id: 'r2' } }]);
    actor.send({ type: 'evaluation.select', id: 'r1' });
    actor.send({ type: 'evaluation.visit', id: 'nope' });
    actor.send({ type: 'evaluation.close' });
    expect(reported.slice(1)).toEqual([
      { type: 'nav.follow', route: { kind: 'evaluation', id: 'r1' } },
      { type: 'nav.missing' },
      { type: 'nav.follow', route: { kind: 'canvas' } },
    ]);
    const other = withNavigation([run({ id: 'r1' })]);
    other.actor.send({ type: 'evaluation.visit', id: 'foreign' });
    await settle();
    expect(other.reported).toEqual([{ type: 'nav.missing' }]);
  });
});
