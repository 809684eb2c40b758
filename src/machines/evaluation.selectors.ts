// What the Evaluate dialog shows, derived from the evaluation snapshot.
import type { EvaluationSnapshot } from './evaluation.machine';
import { formProblem, formRequest } from './evaluation.machine';

export const selectIsEvaluationOpen = (s: EvaluationSnapshot) => s.hasTag('dialogOpen');
export const selectEvalRuns = (s: EvaluationSnapshot) => s.context.runs;
export const selectEvalModels = (s: EvaluationSnapshot) => s.context.models;
export const selectEvalForm = (s: EvaluationSnapshot) => s.context.form;
export const selectEvalFileCheck = (s: EvaluationSnapshot) => s.context.fileCheck;
export const selectIsEvalLoading = (s: EvaluationSnapshot) => s.hasTag('loading');
export const selectEvalLoadError = (s: EvaluationSnapshot) => s.context.loadError;
export const selectEvalActionError = (s: EvaluationSnapshot) => s.context.actionError;
export const selectIsEvalBusy = (s: EvaluationSnapshot) => s.hasTag('busy');
export const selectIsStarting = (s: EvaluationSnapshot) => s.matches({ open: { action: 'starting' } });
export const selectIsCheckingFile = (s: EvaluationSnapshot) => s.matches({ open: { action: 'checking' } });
export const selectSelectedRun = (s: EvaluationSnapshot) =>
  s.context.runs.find((r) => r.id === s.context.selectedId) ?? null;
export const selectCanStart = (s: EvaluationSnapshot) => s.can({ type: 'evaluation.start' });

/** Why Start is disabled, in words; null when it is not. */
export function selectStartBlocker(s: EvaluationSnapshot): string | null {
  const f = s.context.form;
  const problem = formProblem(f, s.context.models);
  if (problem) return problem;
  if (f.taskKind === 'file' && !f.fileText) return 'Choose a JSONL file.';
  if (f.taskKind === 'file' && s.context.fileCheck && !s.context.fileCheck.ok) return 'Fix the file’s errors first.';
  if (!formRequest(f)) return 'Complete the settings.';
  return null;
}
