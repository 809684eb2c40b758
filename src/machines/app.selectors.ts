// The main screen's view state and the children views subscribe to, read from the root snapshot.
import type { AppSnapshot } from './app.machine';
import type { ApiTokensActorRef } from './apiTokens.machine';
import type { AudioQueueActorRef } from './audioQueue.machine';
import type { EvaluationActorRef } from './evaluation.machine';
import type { HistoryActorRef } from './history.machine';
import type { HybridDiscussionActorRef } from './discussionPanel.machine';
import type { LiveUpdatesActorRef } from './liveUpdates.machine';
import type { ModelsActorRef } from './models.machine';
import type { NavigationActorRef } from './navigation.machine';
import type { PanelSaveActorRef } from './panelSave.machine';
import type { PanelsActorRef } from './panels.machine';
import type { SourcesActor } from './sources.machine';
import type { StandardDiscussionActorRef } from './discussionPanel.machine';
import type { WorkspaceActorRef } from './workspace.machine';
import type { InviteActorRef } from './invite.machine';
import type { JoinActorRef } from './join.machine';
import type { ProfileActorRef } from './profile.machine';

export const selectSession = (s: AppSnapshot) => s.children.session;
export const selectToasts = (s: AppSnapshot) => s.children.toasts;
export const selectIsHybridView = (s: AppSnapshot) => s.hasTag('hybridMode');
export const selectIsPanelShown = (s: AppSnapshot) => s.matches({ panel: 'shown' });
export const selectDevPanel = (s: AppSnapshot) =>
  s.matches({ devPanel: 'debug' }) ? 'debug' : s.matches({ devPanel: 'tester' }) ? 'tester' : null;
export const selectIsTestingConnection = (s: AppSnapshot) => s.matches({ connectionTest: 'testing' });
// These actors are spawned from a lazily loaded chunk, so the root's types do not know them.
type Children = Record<string, unknown>;
export const selectWorkspace = (s: AppSnapshot) => (s.children as Children).workspace as WorkspaceActorRef | undefined;
export const selectModels = (s: AppSnapshot) => (s.children as Children).models as ModelsActorRef | undefined;
export const selectEvaluation = (s: AppSnapshot) =>
  (s.children as Children).evaluation as EvaluationActorRef | undefined;
export const selectLiveUpdates = (s: AppSnapshot) =>
  (s.children as Children).liveUpdates as LiveUpdatesActorRef | undefined;
export const selectStandardDiscussion = (s: AppSnapshot) =>
  (s.children as Children).standardDiscussion as StandardDiscussionActorRef | undefined;
export const selectHybridDiscussion = (s: AppSnapshot) =>
  (s.children as Children).hybridDiscussion as HybridDiscussionActorRef | undefined;
export const selectAudioQueue = (s: AppSnapshot) =>
  (s.children as Children).audioQueue as AudioQueueActorRef | undefined;
export const selectNavigation = (s: AppSnapshot) =>
  (s.children as Children).navigation as NavigationActorRef | undefined;
export const selectHistory = (s: AppSnapshot) => (s.children as Children).history as HistoryActorRef | undefined;
export const selectSources = (s: AppSnapshot) => (s.children as Children).sources as SourcesActor | undefined;
export const selectPanelSave = (s: AppSnapshot) => (s.children as Children).panelSave as PanelSaveActorRef | undefined;
export const selectPanels = (s: AppSnapshot) => (s.children as Children).panels as PanelsActorRef | undefined;
export const selectApiTokens = (s: AppSnapshot) => (s.children as Children).apiTokens as ApiTokensActorRef | undefined;
export const selectProfile = (s: AppSnapshot) => (s.children as Children).profile as ProfileActorRef | undefined;
export const selectInvite = (s: AppSnapshot) => (s.children as Children).invite as InviteActorRef | undefined;
export const selectJoin = (s: AppSnapshot) => (s.children as Children).join as JoinActorRef | undefined;
