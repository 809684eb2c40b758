// What the 'Save as panel' and 'Panels' dialogs show, derived from their snapshots.
import type { PanelSaveSnapshot } from './panelSave.machine';
import type { PanelsSnapshot } from './panels.machine';

export const selectIsPanelSaveOpen = (s: PanelSaveSnapshot) => s.hasTag('dialogOpen');
export const selectIsPanelSaving = (s: PanelSaveSnapshot) => s.hasTag('busy');
export const selectPanelSaveName = (s: PanelSaveSnapshot) => s.context.name;
export const selectPanelSaveError = (s: PanelSaveSnapshot) => s.context.error;
export const selectPanelSaveDraft = (s: PanelSaveSnapshot) => s.context.draft;

export const selectIsPanelsOpen = (s: PanelsSnapshot) => s.hasTag('dialogOpen');
export const selectPanelList = (s: PanelsSnapshot) => s.context.panels;
export const selectIsPanelsLoading = (s: PanelsSnapshot) => s.hasTag('loading');
export const selectPanelsLoadError = (s: PanelsSnapshot) =>
  s.matches({ open: { data: 'failed' } }) ? s.context.loadError : null;
export const selectPanelsActionError = (s: PanelsSnapshot) => s.context.actionError;
export const selectIsPanelsBusy = (s: PanelsSnapshot) => s.hasTag('busy');
export const selectPanelRename = (s: PanelsSnapshot) => s.context.rename;
export const selectIsRenaming = (s: PanelsSnapshot) => s.matches({ open: { action: 'renaming' } });
/** The panel a delete is asked for (the confirmation shows while this is set). */
export const selectPanelToDelete = (s: PanelsSnapshot) =>
  s.matches({ open: { action: 'confirmingDelete' } }) || s.matches({ open: { action: 'deleting' } })
    ? (s.context.panels.find((p) => p.id === s.context.pendingId) ?? null)
    : null;
export const selectIsDeletingPanel = (s: PanelsSnapshot) => s.matches({ open: { action: 'deleting' } });
