// The open tab, as the tab bar shows it; Discussion until the child has started.
import type { StandardTab } from '../model/standardVariant';
import type { DiscussionTabsSnapshot } from './discussionTabs.machine';

export const selectOpenTab = (s: DiscussionTabsSnapshot | undefined): StandardTab =>
  (s?.value as StandardTab | undefined) ?? 'discussion';
