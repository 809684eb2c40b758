// What the built-in models section draws, derived from the chart's snapshot.
import type { ModelDownload, RecommendedModel } from '../schemas/builtinModels';
import type { BuiltinModelsSnapshot } from './builtinModels.machine';

export const selectLoading = (s: BuiltinModelsSnapshot) => s.matches('loading');
export const selectLoadFailed = (s: BuiltinModelsSnapshot) => s.matches('failed');
/** A request is in flight: the buttons that start another wait. */
export const selectBusy = (s: BuiltinModelsSnapshot) => s.matches('working');
export const selectError = (s: BuiltinModelsSnapshot) => s.context.error;
export const selectFiles = (s: BuiltinModelsSnapshot) => s.context.list?.files ?? [];
export const selectDownloads = (s: BuiltinModelsSnapshot) =>
  s.context.list?.downloads.filter((d) => d.state !== 'done') ?? [];
export const selectDir = (s: BuiltinModelsSnapshot) => s.context.list?.dir ?? '';
/** Whether this user manages the files (the operator); everyone else reads the list. */
export const selectCanManage = (s: BuiltinModelsSnapshot) => s.context.list?.can_manage ?? false;
export const selectImportDirs = (s: BuiltinModelsSnapshot) => s.context.list?.import_dirs ?? [];

/** Whole percent received, or null while the size is unknown. */
export const downloadPercent = (d: ModelDownload) =>
  d.total ? Math.min(100, Math.floor((d.received / d.total) * 100)) : null;

export type RecommendedStatus = 'available' | 'downloading' | 'installed';
export const selectRecommended = (
  s: BuiltinModelsSnapshot,
): Array<RecommendedModel & { status: RecommendedStatus }> => {
  const files = new Set(selectFiles(s).map((f) => f.name));
  const active = new Set(
    selectDownloads(s)
      .filter((d) => d.state === 'running' || d.state === 'verifying')
      .map((d) => d.file),
  );
  return (s.context.list?.recommended ?? []).map((m) => ({
    ...m,
    status: files.has(m.file) ? 'installed' : active.has(m.file) ? 'downloading' : 'available',
  }));
};

/** The recommended model for this server's memory (the server picks it), with its status. */
export const selectSuggested = (s: BuiltinModelsSnapshot) =>
  selectRecommended(s).find((m) => m.id === s.context.list?.suggested) ?? null;
/** Why the download of `file` stopped, when it did: shown beside the button that started it. */
export const selectDownloadError = (s: BuiltinModelsSnapshot, file: string) =>
  s.context.list?.downloads.find((d) => d.file === file && (d.state === 'failed' || d.state === 'interrupted'))
    ?.error ?? null;
