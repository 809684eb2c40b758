// The main screen's view state and the children views subscribe to, read from the root snapshot.
import type { AppSnapshot } from './app.machine';

export const selectSession = (s: AppSnapshot) => s.children.session;
export const selectToasts = (s: AppSnapshot) => s.children.toasts;
export const selectWorkspace = (s: AppSnapshot) => s.children.workspace;
export const selectLiveUpdates = (s: AppSnapshot) => s.children.liveUpdates;
export const selectIsHybridView = (s: AppSnapshot) => s.hasTag('hybridMode');
export const selectIsPanelShown = (s: AppSnapshot) => s.matches({ panel: 'shown' });
export const selectDevPanel = (s: AppSnapshot) =>
  s.matches({ devPanel: 'debug' }) ? 'debug' : s.matches({ devPanel: 'tester' }) ? 'tester' : null;
export const selectIsTestingConnection = (s: AppSnapshot) => s.matches({ connectionTest: 'testing' });
export const selectStandardDiscussion = (s: AppSnapshot) => s.children.standardDiscussion;
export const selectHybridDiscussion = (s: AppSnapshot) => s.children.hybridDiscussion;
export const selectAudioQueue = (s: AppSnapshot) => s.children.audioQueue;
