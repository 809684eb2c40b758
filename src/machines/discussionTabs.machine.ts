// The four tabs of a discussion (the panel's and the History viewer's): Discussion | Reasoning Tree | Research |
// Analytics. The owner forwards its own tab event; the standard panel reads the open tab when it chooses an endpoint.
import { setup, type ActorRefFrom, type SnapshotFrom } from 'xstate';
import { STANDARD_TABS, type StandardTab } from '../model/standardVariant';

export type DiscussionTabsEvent = { type: 'tab.select'; tab: StandardTab };

const selectTab = (tab: StandardTab) => ({
  guard: ({ event }: { event: DiscussionTabsEvent }) => event.tab === tab,
  target: `.${tab}`,
});

export const discussionTabsMachine = setup({
  types: { events: {} as DiscussionTabsEvent },
}).createMachine({
  id: 'discussionTabs',
  initial: 'discussion',
  on: { 'tab.select': STANDARD_TABS.map(selectTab) },
  states: { discussion: {}, tree: {}, research: {}, analytics: {} },
});

export type DiscussionTabsSnapshot = SnapshotFrom<typeof discussionTabsMachine>;
export type DiscussionTabsActorRef = ActorRefFrom<typeof discussionTabsMachine>;
