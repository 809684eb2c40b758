// The real actors behind the History dialog: the three REST calls (discussionApi.ts) and the standard panel's exporter.
import { fromPromise } from 'xstate';
import { withExporter } from '../machines/discussionExport.machine';
import { runningOfferMachine } from '../machines/runningOffer.machine';
import { historyMachine, type HistoryPageRequest } from '../machines/history.machine';
import type { StandardExportRequest } from '../model/standardVariant';
import type { DiscussionApi } from './discussionApi';
import type { shareDialogMachine } from '../machines/shareDialog.machine';
import { exportDiscussionFile, type StandardDiscussionDeps } from './standardDiscussionActors';

export interface HistoryDeps extends Pick<StandardDiscussionDeps, 'saveFile' | 'renderPdf' | 'listConnections'> {
  api: Pick<DiscussionApi, 'listDiscussions' | 'listDiscussionPage' | 'getDiscussion' | 'deleteDiscussion'>;
  /** The opened discussion's Share dialog with its REST calls (shareActors.ts). */
  share?: typeof shareDialogMachine;
}

export function createHistoryLogic(deps: HistoryDeps) {
  const loadDiscussion = fromPromise(({ input }: { input: { id: string } }) => deps.api.getDiscussion(input.id));
  return historyMachine.provide({
    actors: {
      loadHistory: fromPromise(({ input }: { input: HistoryPageRequest }) => deps.api.listDiscussionPage(input)),
      loadDiscussion,
      offer: runningOfferMachine.provide({
        actors: {
          // Newest first, so the first running one is the latest the user started.
          findRunning: fromPromise(
            async () => (await deps.api.listDiscussions()).find((d) => d.status === 'running') ?? null,
          ),
          loadDiscussion,
        },
      }),
      deleteDiscussion: fromPromise(({ input }: { input: { id: string } }) => deps.api.deleteDiscussion(input.id)),
      exportDiscussion: withExporter((input: StandardExportRequest) => exportDiscussionFile(input, deps)),
      ...(deps.share ? { share: deps.share } : {}),
    },
  });
}
