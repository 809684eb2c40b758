// @vitest-environment jsdom
// Evaluate 'with tools' in the dialog (docs/evaluation.md#with-tools): each method's 'with tools' switch, usable
// once the method is chosen, goes into the run's request; a run's results name the calculator variant apart from
// the plain method, in the progress list, the chart's table and the export.
import { act, cleanup, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import { createActor, fromPromise } from 'xstate';
import { evaluationMachine } from '../../src/machines/evaluation.machine';
import type { EvalMethodResult, EvalRun } from '../../src/schemas/eval';
import type { ModelOption } from '../../src/schemas/system';
import { evalCsv } from '../../src/shared/evalExport';
import { EvalFormView } from '../../src/ui/eval/EvalFormView';
import { EvalRunView } from '../../src/ui/eval/EvalRunView';

afterEach(cleanup);

const result = (over: Partial<EvalMethodResult>): EvalMethodResult => ({
  method: 'one_answer',
  total: 6,
  done: 6,
  correct: 2,
  accuracy: 0.3333,
  ci_low: 0.1,
  ci_high: 0.7,
  tokens: 150,
  tokens_per_question: 25,
  seconds_per_question: 0.1,
  unreadable: 0,
  estimated_calls: 0,
  k: null,
  first_vote: null,
  ...over,
});
const run: EvalRun = {
  id: 'r1',
  name: 'Arithmetic',
  created_at: '2026-01-01T00:00:00.000Z',
  status: 'done',
  detail: null,
  tasks: { kind: 'arithmetic', label: 'Arithmetic (seed 3, 6 questions)', seed: 3 },
  question_count: 6,
  models: ['@c/m'],
  single_model: '@c/m',
  judge_model: '@c/m',
  methods: ['one_answer'],
  with_tools: ['one_answer'],
  rounds: 2,
  equal_tokens: true,
  budget_tokens: null,
  tokens_used: 450,
  eta_seconds: null,
  results: [result({}), result({ with_tools: true, correct: 6, accuracy: 1, tokens: 300, tokens_per_question: 50 })],
};

function actorWith(started: unknown[]) {
  const actor = createActor(
    evaluationMachine.provide({
      actors: {
        loadRuns: fromPromise(async (): Promise<EvalRun[]> => []),
        loadModels: fromPromise(
          async (): Promise<ModelOption[]> => [{ value: '@c/m', label: 'Home · m', offline: false }],
        ),
        startRun: fromPromise(async ({ input }) => {
          started.push(input);
          return run;
        }),
      },
    }),
  );
  actor.start();
  actor.send({ type: 'evaluation.open' });
  return actor;
}

describe("Evaluate 'with tools'", () => {
  it("a method's 'with tools' switch is usable once the method is chosen, and goes into the run's request", async () => {
    const user = userEvent.setup();
    const started: unknown[] = [];
    const actor = actorWith(started);
    actor.send({ type: 'evaluation.form.change', patch: { methods: ['chain_of_thought'] } });
    render(<EvalFormView actor={actor} />);
    const oneTools = screen.getByRole('checkbox', { name: 'With tools (the calculator): One answer' });
    expect((oneTools as HTMLInputElement).disabled).toBe(true);
    const cot = screen.getByRole('checkbox', { name: 'With tools (the calculator): Chain-of-thought' });
    expect((cot as HTMLInputElement).disabled).toBe(false);
    await user.click(cot);
    expect((cot as HTMLInputElement).checked).toBe(true);
    await waitFor(() => expect(screen.getByRole('button', { name: /^Start/ }).hasAttribute('disabled')).toBe(false));
    await user.click(screen.getByRole('button', { name: /^Start/ }));
    await waitFor(() => expect(started).toHaveLength(1));
    expect(started[0]).toMatchObject({ methods: ['chain_of_thought'], with_tools: ['chain_of_thought'] });
    // A method unchosen takes its switch with it: no tools for a method the run does not ask.
    act(() => actor.send({ type: 'evaluation.form.change', patch: { methods: ['one_answer'] } }));
    expect((cot as HTMLInputElement).checked).toBe(false);
    expect((cot as HTMLInputElement).disabled).toBe(true);
  });

  it('names the calculator variant beside the plain method, in progress, figures and export', () => {
    const actor = actorWith([]);
    render(<EvalRunView actor={actor} run={run} busy={false} />);
    const progress = screen.getByRole('list', { name: 'Progress per method' });
    expect(
      within(progress)
        .getAllByRole('listitem')
        .map((li) => li.querySelector('.eval-progress__name')?.textContent),
    ).toEqual(['One answer', 'One answer + calculator']);
    const figures = screen.getByRole('table', { name: 'Figures per method' });
    const rows = within(figures).getAllByRole('row').slice(1);
    expect(rows.map((r) => [r.getAttribute('data-method'), r.querySelector('th')?.textContent])).toEqual([
      ['one_answer', 'One answer'],
      ['one_answer+tools', 'One answer + calculator'],
    ]);
    expect(evalCsv(run).split('\n')[2]).toContain(',one_answer+tools,');
  });
});
