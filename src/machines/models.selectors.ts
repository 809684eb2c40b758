// What the Models dialog, the onboarding hint and the top bar show, derived from the models snapshot.
import type { ModelJob } from '../schemas/modelConnections';
import type { ModelsSnapshot } from './models.machine';

export const selectIsDialogOpen = (s: ModelsSnapshot) => s.hasTag('dialogOpen');
export const selectConnections = (s: ModelsSnapshot) => s.context.connections;
export const selectIsListLoading = (s: ModelsSnapshot) =>
  s.matches({ list: 'loading' }) || s.matches({ list: 'reloading' });
export const selectListError = (s: ModelsSnapshot) => (s.matches({ list: 'failed' }) ? s.context.listError : null);
export const selectForm = (s: ModelsSnapshot) => s.context.form;
export const selectIsFormOpen = (s: ModelsSnapshot) => s.hasTag('formOpen');
export const selectIsTesting = (s: ModelsSnapshot) => s.hasTag('testing');
export const selectIsSaving = (s: ModelsSnapshot) => s.hasTag('saving');
export const selectCanTest = (s: ModelsSnapshot) => s.can({ type: 'models.form.test' });
export const selectCanSave = (s: ModelsSnapshot) => s.can({ type: 'models.form.save' });
export const selectTestResult = (s: ModelsSnapshot) => s.context.test;
export const selectFormError = (s: ModelsSnapshot) => s.context.formError;
export const selectActionError = (s: ModelsSnapshot) => s.context.actionError;
export const selectPendingDelete = (s: ModelsSnapshot) =>
  s.hasTag('confirmingDelete') || s.hasTag('deleting') ? s.context.pendingDelete : null;
export const selectIsDeleting = (s: ModelsSnapshot) => s.hasTag('deleting');
/** The Built-in engine's files section, while the dialog is open. */
export const selectBuiltinModels = (s: ModelsSnapshot) => s.children.builtinModels;
export const selectIsStartingPull = (s: ModelsSnapshot) => s.hasTag('startingPull');

/** A connection's pulls, newest first: the running ones, and finished ones until the dialog is reopened or they age out. */
export function selectJobsOf(s: ModelsSnapshot, connectionId: string): ModelJob[] {
  return Object.values(s.context.jobs)
    .filter((j) => j.connection_id === connectionId)
    .sort((a, b) => b.started_at.localeCompare(a.started_at));
}

/**
 * Only the offline model can answer: the list has loaded and no connection offers a model it can reach. While the
 * list loads (or failed to) nothing is said, so the hint never flashes.
 */
export const selectOnlyOffline = (s: ModelsSnapshot) =>
  (s.matches({ list: 'ready' }) || s.matches({ list: 'reloading' })) &&
  !s.context.connections.some((c) => c.status.state === 'reachable' && c.models.length > 0);
export const selectShowConnectHint = (s: ModelsSnapshot) => selectOnlyOffline(s) && s.matches({ hint: 'shown' });

/** Bytes as people read them: 1.2 GB, 640 MB, 12 KB. */
export function formatBytes(n: number): string {
  if (n >= 1e9) return `${(n / 1e9).toFixed(1)} GB`;
  if (n >= 1e6) return `${(n / 1e6).toFixed(n >= 1e8 ? 0 : 1)} MB`;
  if (n >= 1e3) return `${Math.round(n / 1e3)} KB`;
  return `${n} B`;
}
export const jobPercent = (j: ModelJob) => (j.total > 0 ? Math.min(100, Math.floor((j.completed / j.total) * 100)) : 0);
