// The public page of a share link (/s/{token}): no account, no sign-in screen. The stored discussion read-only with
// History's own viewer (tabs, Replay with the Timeline, #t=<turn> opening that moment, both exports), or one plain
// page when the link is not valid. It reads the sharedPage actor and only sends.
import { useSelector } from '@xstate/react';
import { selectSharedState, type SharedPageActorRef } from '../../machines/sharedPage.machine';
import type { HistoryTab } from '../../machines/history.machine';
import { SHARE_INVALID_TEXT } from '../../schemas/rooms';
import { LoadingScreen } from '../common/LoadingScreen';
import { StoredDiscussionView } from '../discussion/history/StoredDiscussionView';
import '../discussion/discussion.css';
import '../discussion/history/history.css';
import './share.css';

export function SharedPage({ page }: { page: SharedPageActorRef }) {
  const state = useSelector(page, selectSharedState);
  const opened = useSelector(page, (s) => s.context.opened);
  const expiresAt = useSelector(page, (s) => s.context.expiresAt);
  const error = useSelector(page, (s) => s.context.error);
  const tabs = useSelector(page, (s) => s.children.tabs);
  const exporter = useSelector(page, (s) => s.children.exporter);
  const replay = useSelector(page, (s) => s.children.replay);
  if (state === 'loading') return <LoadingScreen text="Opening the shared discussion…" />;
  if (state === 'invalid')
    return (
      <main className="shared-page__invalid">
        <h1>{SHARE_INVALID_TEXT}</h1>
        <p className="muted">It may have been revoked by the person who shared it, or it has expired.</p>
      </main>
    );
  if (state === 'failed' || !opened || !replay)
    return (
      <main className="shared-page__invalid" role="alert">
        <h1>Could not open the shared discussion</h1>
        <p>{error}</p>
        <button type="button" className="button" onClick={() => page.send({ type: 'shared.retry' })}>
          Try again
        </button>
      </main>
    );
  return (
    <main className="shared-page discussion-panel">
      <p className="shared-page__banner">
        <span>
          <span className="shared-page__brand">Agora</span> · a discussion shared read-only
        </span>
        {expiresAt && <span>This link works until {new Date(expiresAt).toLocaleDateString()}</span>}
      </p>
      <StoredDiscussionView
        opened={opened}
        tabs={tabs}
        exporter={exporter}
        replay={replay}
        idPrefix="shared"
        onTab={(tab: HistoryTab) => page.send({ type: 'shared.tab.select', tab })}
        onExport={(format) => page.send({ type: 'shared.export', format })}
      />
    </main>
  );
}
