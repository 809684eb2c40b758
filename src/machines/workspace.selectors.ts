// Derived views of the workspace snapshot for the top bar and the canvas placeholders.
import type { WorkspaceSnapshot } from './workspace.machine';

export const selectAgentCount = (s: WorkspaceSnapshot) => s.context.agents.length;
export const selectSelectedCount = (s: WorkspaceSnapshot) => s.context.selectedIds.length;
export const selectConnectionCount = (s: WorkspaceSnapshot) => s.context.edges.length;
export const selectIsLoadingAgents = (s: WorkspaceSnapshot) => s.matches({ agents: 'loading' });
export const selectLoadError = (s: WorkspaceSnapshot) => s.context.loadError;
export const selectSelectedAgents = (s: WorkspaceSnapshot) => {
  const ids = new Set(s.context.selectedIds);
  return s.context.agents.filter((a) => ids.has(a.id));
};
export const selectStatusOf = (s: WorkspaceSnapshot, id: string) => s.context.statuses[id] ?? 'idle';
export const selectActiveSpeaker = (s: WorkspaceSnapshot) =>
  s.context.activeSpeakerId ? (s.context.agents.find((a) => a.id === s.context.activeSpeakerId) ?? null) : null;
