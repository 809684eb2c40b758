// The Evaluate chart's vocabulary (the chart itself: evaluation.machine.ts): its context and events, the REST calls
// it invokes, its guards and actions, and the run action's shared failure transition.
import { assign, enqueueActions, fromPromise, setup } from 'xstate';
import { notProvided } from './kit/actorKit';
import { reportMissing, reportRoute } from './kit/navigation';
import { CANVAS } from '../model/address';
import type { EvalFileCheck, EvalRun, EvalRunCreate } from '../schemas/eval';
import { EVAL_POLL_MS } from '../schemas/evalConstants';
import type { ModelOption } from '../schemas/system';
import { type EvalForm, formProblem, formRequest } from '../model/evalForm';

export { cannotAnswer, DEFAULT_EVAL_FORM, type EvalForm, formProblem, formRequest } from '../model/evalForm';

export interface EvaluationContext {
  runs: EvalRun[];
  models: ModelOption[];
  form: EvalForm;
  selectedId: string | null;
  fileCheck: EvalFileCheck | null;
  loadError: string | null;
  actionError: string | null;
  /** The run the action in progress is about, and the export's format. */
  pending: { id: string; format?: 'csv' | 'json' } | null;
  /** The file being read and checked. */
  chosenFile: Blob | null;
  /** The run an address named, until the runs have loaded and it is found (or not). */
  visitingId: string | null;
}

export type EvaluationEvent =
  | { type: 'evaluation.open' }
  /** The navigation actor: open at this run (an address /evaluations/{id}), or at the list (null). */
  | { type: 'evaluation.visit'; id: string | null }
  | { type: 'evaluation.close' }
  | { type: 'evaluation.retry' }
  | { type: 'evaluation.form.change'; patch: Partial<EvalForm> }
  | { type: 'evaluation.file.chosen'; name: string; file: Blob }
  | { type: 'evaluation.start' }
  | { type: 'evaluation.select'; id: string }
  | { type: 'evaluation.stop'; id: string }
  | { type: 'evaluation.resume'; id: string }
  | { type: 'evaluation.delete'; id: string }
  | { type: 'evaluation.export'; id: string; format: 'csv' | 'json' }
  | { type: 'evaluation.error.dismiss' };

export interface ExportInput {
  run: EvalRun;
  format: 'csv' | 'json';
}

export const errorText = (e: unknown) =>
  e instanceof Error ? e.message : typeof e === 'string' ? e : 'Something went wrong';

/** A run action that failed: its error is shown and the dialog is ready for the next. */
export const backToReady = {
  target: 'ready',
  actions: { type: 'setActionError', params: ({ event }: { event: { error: unknown } }) => ({ error: event.error }) },
} as const;

const replaceRun = (runs: EvalRun[], run: EvalRun) =>
  runs.some((r) => r.id === run.id) ? runs.map((r) => (r.id === run.id ? run : r)) : [run, ...runs];

export const evaluationSetup = setup({
  types: {
    context: {} as EvaluationContext,
    events: {} as EvaluationEvent,
  },
  actors: {
    loadRuns: fromPromise<EvalRun[]>(notProvided('evaluation', 'loadRuns')),
    loadModels: fromPromise<ModelOption[]>(notProvided('evaluation', 'loadModels')),
    checkFile: fromPromise<{ text: string; check: EvalFileCheck }, { file: Blob }>(
      notProvided('evaluation', 'checkFile'),
    ),
    startRun: fromPromise<EvalRun, EvalRunCreate>(notProvided('evaluation', 'startRun')),
    stopRun: fromPromise<EvalRun, { id: string }>(notProvided('evaluation', 'stopRun')),
    resumeRun: fromPromise<EvalRun, { id: string }>(notProvided('evaluation', 'resumeRun')),
    deleteRun: fromPromise<unknown, { id: string }>(notProvided('evaluation', 'deleteRun')),
    saveExport: fromPromise<void, ExportInput>(notProvided('evaluation', 'saveExport')),
  },
  delays: { poll: EVAL_POLL_MS },
  guards: {
    isKnownRun: ({ context, event }) => 'id' in event && context.runs.some((r) => r.id === event.id),
    isAnyRunning: ({ context }) => context.runs.some((r) => r.status === 'running' || r.status === 'stopping'),
    canStart: ({ context }) =>
      formProblem(context.form, context.models) === null &&
      formRequest(context.form) !== null &&
      (context.form.taskKind !== 'file' || context.fileCheck?.ok === true),
  },
  actions: {
    setActionError: assign({ actionError: (_, params: { error: unknown }) => errorText(params.error) }),
    setPending: assign({
      pending: ({ event }) =>
        'id' in event && event.id !== null
          ? { id: event.id, ...('format' in event ? { format: event.format } : {}) }
          : null,
      actionError: null,
    }),
    reportShown: enqueueActions(({ context, system }) =>
      reportRoute(system, { kind: 'evaluation', id: context.selectedId }),
    ),
    reportCanvas: enqueueActions(({ system }) => reportRoute(system, CANVAS)),
    /** The runs have loaded: the run an address named is shown, or reported missing. */
    settleVisit: enqueueActions(({ context, system, enqueue }) => {
      const wanted = context.visitingId;
      if (wanted !== null && !context.runs.some((r) => r.id === wanted)) reportMissing(system);
      else reportRoute(system, { kind: 'evaluation', id: context.selectedId });
      enqueue.assign({ visitingId: null });
    }),
    putRun: assign({ runs: ({ context }, params: { run: EvalRun }) => replaceRun(context.runs, params.run) }),
  },
});
