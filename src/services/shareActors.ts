// The real actors behind the Share dialog and the public shared page.
import { fromPromise } from 'xstate';
import { withExporter } from '../machines/discussionExport.machine';
import { shareDialogMachine } from '../machines/shareDialog.machine';
import { sharedPageMachine } from '../machines/sharedPage.machine';
import type { StandardExportRequest } from '../model/standardVariant';
import type { SharesApi } from './sharesApi';
import { exportDiscussionFile, type StandardDiscussionDeps } from './standardDiscussionActors';

export function createShareDialogLogic(api: Pick<SharesApi, 'listShares' | 'createShare' | 'revokeShare'>) {
  return shareDialogMachine.provide({
    actors: {
      listShares: fromPromise(({ input }: { input: { discussionId: string } }) => api.listShares(input.discussionId)),
      createShare: fromPromise(({ input }: { input: { discussionId: string } }) => api.createShare(input.discussionId)),
      revokeShare: fromPromise(({ input }: { input: { id: string } }) => api.revokeShare(input.id)),
      copyText: fromPromise(async ({ input }: { input: { text: string } }) => {
        if (!navigator.clipboard)
          throw new Error('This browser does not let the page copy; select the address and copy it');
        await navigator.clipboard.writeText(input.text);
      }),
    },
  });
}

export function createSharedPageLogic(
  api: Pick<SharesApi, 'sharedDiscussion'>,
  deps: Pick<StandardDiscussionDeps, 'saveFile' | 'renderPdf'>,
) {
  return sharedPageMachine.provide({
    actors: {
      loadShared: fromPromise(({ input }: { input: { token: string } }) => api.sharedDiscussion(input.token)),
      // No connections list: a reader of a shared page has none, and the export names agents by name and role.
      exportDiscussion: withExporter((input: StandardExportRequest) => exportDiscussionFile(input, deps)),
    },
  });
}
