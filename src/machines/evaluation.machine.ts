// The Evaluate dialog (README 'Does the panel help?'): the form of a new run (model/evalForm.ts), the user's
// stored runs with their progress, read again every EVAL_POLL_MS while one runs, and the run actions: start, stop,
// resume, delete, export. A task file is checked by the server once chosen; its errors are shown per line.
//   dialog — closed | open
//   data   — loading → idle ⇄ waiting → refreshing (polling only while a run is running) | failed
//   action — ready | checking | starting | stopping | resuming | deleting | exporting
// Addresses: opening, choosing a run and closing are reported to the navigation actor (/evaluations/{id}, the
// canvas); `evaluation.visit` opens at the run an address names, and a run that is not this user's is reported missing.
import { assign, enqueueActions, type ActorRefFrom, type SnapshotFrom } from 'xstate';
import { cannotAnswer, DEFAULT_EVAL_FORM, formRequest } from '../model/evalForm';
import { reportMissing } from './kit/navigation';
import { backToReady, errorText, evaluationSetup } from './evaluation.setup';

export * from './evaluation.setup';

export const evaluationMachine = evaluationSetup.createMachine({
  id: 'evaluation',
  context: {
    runs: [],
    models: [],
    form: DEFAULT_EVAL_FORM,
    selectedId: null,
    fileCheck: null,
    loadError: null,
    actionError: null,
    pending: null,
    chosenFile: null,
    visitingId: null,
  },
  initial: 'closed',
  states: {
    closed: {
      on: {
        'evaluation.open': { target: 'open', actions: 'reportShown' },
        'evaluation.visit': {
          target: 'open',
          actions: assign({ selectedId: ({ event }) => event.id, visitingId: ({ event }) => event.id }),
        },
      },
    },
    open: {
      tags: 'dialogOpen',
      type: 'parallel',
      invoke: {
        src: 'loadModels',
        onDone: {
          actions: assign({
            models: ({ event }) => event.output,
            // The first reachable real model is preselected, as the agent editor does.
            form: ({ context, event }) => {
              if (context.form.models.length) return context.form;
              const usable = event.output.filter((m) => !cannotAnswer(m));
              const first = usable.find((m) => !m.unreachable) ?? usable[0];
              return first ? { ...context.form, models: [first.value] } : context.form;
            },
          }),
        },
        onError: {
          actions: assign({ loadError: ({ event }) => `The models could not be listed: ${errorText(event.error)}` }),
        },
      },
      on: {
        'evaluation.close': { target: 'closed', actions: 'reportCanvas' },
        'evaluation.visit': [
          {
            guard: ({ context, event }) => event.id === null || context.runs.some((r) => r.id === event.id),
            actions: [assign({ selectedId: ({ context, event }) => event.id ?? context.selectedId }), 'reportShown'],
          },
          { actions: enqueueActions(({ system }) => reportMissing(system)) },
        ],
        'evaluation.form.change': {
          actions: assign({ form: ({ context, event }) => ({ ...context.form, ...event.patch }) }),
        },
        'evaluation.select': { actions: [assign({ selectedId: ({ event }) => event.id }), 'reportShown'] },
        'evaluation.error.dismiss': { actions: assign({ actionError: null }) },
      },
      states: {
        data: {
          initial: 'loading',
          states: {
            loading: {
              tags: 'loading',
              invoke: {
                src: 'loadRuns',
                onDone: {
                  target: 'idle',
                  actions: [
                    assign({
                      runs: ({ event }) => event.output,
                      selectedId: ({ context, event }) => context.selectedId ?? event.output[0]?.id ?? null,
                      loadError: null,
                    }),
                    'settleVisit',
                  ],
                },
                onError: { target: 'failed', actions: assign({ loadError: ({ event }) => errorText(event.error) }) },
              },
            },
            idle: { always: { guard: 'isAnyRunning', target: 'waiting' } },
            waiting: { after: { poll: 'refreshing' } },
            refreshing: {
              invoke: {
                src: 'loadRuns',
                onDone: { target: 'idle', actions: assign({ runs: ({ event }) => event.output, loadError: null }) },
                // A missed poll is tried again at the next tick; the figures shown stay the last ones read.
                onError: {
                  target: 'waiting',
                  actions: assign({
                    loadError: ({ event }) => `Progress could not be read: ${errorText(event.error)}`,
                  }),
                },
              },
            },
            failed: { on: { 'evaluation.retry': 'loading' } },
          },
        },
        action: {
          initial: 'ready',
          states: {
            ready: {
              on: {
                'evaluation.file.chosen': {
                  target: 'checking',
                  actions: assign({
                    form: ({ context, event }) => ({
                      ...context.form,
                      taskKind: 'file',
                      fileName: event.name,
                      fileText: null,
                    }),
                    fileCheck: null,
                    chosenFile: ({ event }) => event.file,
                  }),
                },
                'evaluation.start': { guard: 'canStart', target: 'starting' },
                'evaluation.stop': { target: 'stopping', actions: 'setPending' },
                'evaluation.resume': { target: 'resuming', actions: 'setPending' },
                'evaluation.delete': { target: 'deleting', actions: 'setPending' },
                'evaluation.export': { guard: 'isKnownRun', target: 'exporting', actions: 'setPending' },
              },
            },
            checking: {
              tags: 'busy',
              invoke: {
                src: 'checkFile',
                input: ({ context }) => ({ file: context.chosenFile! }),
                onDone: {
                  target: 'ready',
                  actions: assign({
                    fileCheck: ({ event }) => event.output.check,
                    form: ({ context, event }) => ({ ...context.form, fileText: event.output.text }),
                    chosenFile: null,
                  }),
                },
                onError: backToReady,
              },
            },
            starting: {
              tags: 'busy',
              invoke: {
                src: 'startRun',
                input: ({ context }) => formRequest(context.form)!,
                onDone: {
                  target: 'ready',
                  actions: [
                    { type: 'putRun', params: ({ event }) => ({ run: event.output }) },
                    assign({ selectedId: ({ event }) => event.output.id, actionError: null }),
                  ],
                },
                onError: backToReady,
              },
            },
            stopping: {
              tags: 'busy',
              invoke: {
                src: 'stopRun',
                input: ({ context }) => ({ id: context.pending!.id }),
                onDone: {
                  target: 'ready',
                  actions: { type: 'putRun', params: ({ event }) => ({ run: event.output }) },
                },
                onError: backToReady,
              },
            },
            resuming: {
              tags: 'busy',
              invoke: {
                src: 'resumeRun',
                input: ({ context }) => ({ id: context.pending!.id }),
                onDone: {
                  target: 'ready',
                  actions: { type: 'putRun', params: ({ event }) => ({ run: event.output }) },
                },
                onError: backToReady,
              },
            },
            deleting: {
              tags: 'busy',
              invoke: {
                src: 'deleteRun',
                input: ({ context }) => ({ id: context.pending!.id }),
                onDone: {
                  target: 'ready',
                  actions: assign({
                    runs: ({ context }) => context.runs.filter((r) => r.id !== context.pending?.id),
                    selectedId: ({ context }) =>
                      context.selectedId === context.pending?.id ? null : context.selectedId,
                  }),
                },
                onError: backToReady,
              },
            },
            exporting: {
              tags: 'busy',
              invoke: {
                src: 'saveExport',
                input: ({ context }) => ({
                  run: context.runs.find((r) => r.id === context.pending?.id)!,
                  format: context.pending?.format ?? 'csv',
                }),
                onDone: 'ready',
                onError: backToReady,
              },
            },
          },
        },
      },
    },
  },
});

export type EvaluationActorRef = ActorRefFrom<typeof evaluationMachine>;
export type EvaluationSnapshot = SnapshotFrom<typeof evaluationMachine>;

declare module './kit/systemRegistry' {
  interface SystemActors {
    evaluation: ActorRefFrom<typeof evaluationMachine>;
  }
}
