// 'Share' on a discussion (History's viewer, a finished panel) and the dialog it opens. Nothing when the chart has no
// Share dialog child (a run not finished).
import type { ShareDialogActorRef } from '../../machines/shareDialog.machine';
import { ShareDialog } from './ShareDialog';

export function ShareButton({ share, topic }: { share: ShareDialogActorRef | undefined; topic: string }) {
  if (!share) return null;
  return (
    <>
      <button type="button" className="button button--small" onClick={() => share.send({ type: 'share.show' })}>
        Share
      </button>
      <ShareDialog share={share} topic={topic} />
    </>
  );
}
