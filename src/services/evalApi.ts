// The Evaluate dialog's REST calls (README 'Does the panel help?'), on the one HTTP helper, each answer checked by
// its schema; and the export, written by the same functions the CLI prints with.
import { fromPromise } from 'xstate';
import { evaluationMachine, type ExportInput } from '../machines/evaluation.machine';
import type { EvalRunCreate } from '../schemas/eval';
import { EVAL_LIMITS } from '../schemas/evalConstants';
import type { ModelOption } from '../schemas/system';
import type { Http } from './http';
import { lazyAsk } from './lazyAsk';

export function createEvalApi({ request }: Http) {
  const enc = encodeURIComponent;
  const ask = lazyAsk(request);
  return {
    list: async () => (await ask('GET', '/eval/runs', 'evalRunList', { retry: true })).runs,
    start: (body: EvalRunCreate) => ask('POST', '/eval/runs', 'evalRun', { json: body }),
    stop: ({ id }: { id: string }) => ask('POST', `/eval/runs/${enc(id)}/stop`, 'evalRun'),
    resume: ({ id }: { id: string }) => ask('POST', `/eval/runs/${enc(id)}/resume`, 'evalRun', { json: {} }),
    remove: ({ id }: { id: string }) => ask('DELETE', `/eval/runs/${enc(id)}`, 'anything'),
    check: ({ jsonl }: { jsonl: string }) => ask('POST', '/eval/tasks/check', 'evalFileCheck', { json: { jsonl } }),
  };
}

const fileName = (input: ExportInput) =>
  `evaluation-${input.run.created_at.slice(0, 19).replace(/[:T]/g, '-')}.${input.format}`;

export function createEvalLogic(deps: {
  http: Http;
  listModels: () => Promise<ModelOption[]>;
  saveFile: (blob: Blob, name: string) => void;
}) {
  const api = createEvalApi(deps.http);
  return evaluationMachine.provide({
    actors: {
      loadRuns: fromPromise(() => api.list()),
      loadModels: fromPromise(() => deps.listModels()),
      checkFile: fromPromise(async ({ input }: { input: { file: Blob } }) => {
        if (input.file.size > EVAL_LIMITS.fileBytes) {
          return {
            text: '',
            check: { ok: false, count: 0, errors: [{ line: 0, message: 'The file is larger than 1.5 MB' }] },
          };
        }
        const text = await input.file.text();
        return { text, check: await api.check({ jsonl: text }) };
      }),
      startRun: fromPromise(({ input }) => api.start(input)),
      stopRun: fromPromise(({ input }) => api.stop(input)),
      resumeRun: fromPromise(({ input }) => api.resume(input)),
      deleteRun: fromPromise(({ input }) => api.remove(input)),
      saveExport: fromPromise(async ({ input }: { input: ExportInput }) => {
        const { evalCsv, evalJson } = await import('../shared/evalExport');
        const text = input.format === 'csv' ? evalCsv(input.run) : evalJson(input.run);
        deps.saveFile(
          new Blob([text], { type: input.format === 'csv' ? 'text/csv' : 'application/json' }),
          fileName(input),
        );
      }),
    },
  });
}
