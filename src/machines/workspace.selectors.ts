// Derived views of the workspace snapshot for the top bar, the canvas and its placeholders.
import { AGENT_MESSAGES } from '../schemas/messages';
import { activeSpeakerId, displayName } from '../model/agentDisplay';
import type { AgentDeletionActorRef, AgentDeletionSnapshot } from './agentDeletion.machine';
import type { EditorActorRef } from './editor.machine';
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
/** The agent speaking now (one derivation: agentDisplay.activeSpeakerId). */
export const selectActiveSpeaker = (s: WorkspaceSnapshot) => {
  const id = selectActiveSpeakerId(s);
  return id ? (s.context.agents.find((a) => a.id === id) ?? null) : null;
};

// ── The canvas ──────────────────────────────────────────────────────────────

export const selectAgents = (s: WorkspaceSnapshot) => s.context.agents;
export const selectEdges = (s: WorkspaceSnapshot) => s.context.edges;
export const selectSelection = (s: WorkspaceSnapshot) => s.context.selectedIds;
export const selectStatuses = (s: WorkspaceSnapshot) => s.context.statuses;
/** The positions the canvas draws: a stored discussion's while History shows one, else the panel's. */
export const selectPositions = (s: WorkspaceSnapshot) => s.context.shownPositions ?? s.context.positions;
export const selectIsAutoConnecting = (s: WorkspaceSnapshot) => s.matches({ autoConnect: 'running' });
export const selectEditorRef = (s: WorkspaceSnapshot) => s.children.editor as EditorActorRef | undefined;

/** The banner: the canvas's own message, else a failed first load. */
export function selectBanner(s: WorkspaceSnapshot): { kind: 'error' | 'success'; text: string } | null {
  if (s.context.banner) return s.context.banner;
  return s.context.loadError ? { kind: 'error', text: s.context.loadError } : null;
}

/** The agent deletion under way (its own actor: agentDeletion.machine.ts), if any. */
export const selectAgentDeletionRef = (s: WorkspaceSnapshot) =>
  s.children.agentDeletion as AgentDeletionActorRef | undefined;

/** The delete confirmation to show, if any: its words, and whether the answer can be given yet. */
export function selectDeleteConfirmation(
  d: AgentDeletionSnapshot | undefined,
): { message: string; ready: boolean; busy: boolean } | null {
  if (!d || d.status !== 'active') return null;
  const { name, audioCount } = d.context;
  if (d.matches('counting')) return { message: `Counting the audio files of "${name}"…`, ready: false, busy: false };
  const message =
    audioCount === null
      ? `Delete agent "${name}"? Its audio files will also be deleted.`
      : AGENT_MESSAGES.deleteConfirm(name, audioCount);
  return { message, ready: true, busy: d.matches('deleting') };
}

/** The id of the agent speaking now: the one the sockets named last, else one whose status says so. */
export function selectActiveSpeakerId(s: WorkspaceSnapshot): string | null {
  return activeSpeakerId(s.context.agents, s.context.statuses);
}

export const selectIsAgentsLoaded = (s: WorkspaceSnapshot) => s.matches({ agents: 'loaded' });

export function selectActiveSpeakerName(s: WorkspaceSnapshot): string | null {
  const agent = selectActiveSpeaker(s);
  return agent ? displayName(agent) : null;
}
