// Version, host, Ready/Idle (live updates connected or not), the tail of the token's subject, error count.
import { useSelector } from '@xstate/react';
import type { AppActorRef } from '../../machines/app.machine';
import {
  selectHybridDiscussion,
  selectLiveUpdates,
  selectStandardDiscussion,
  selectToasts,
} from '../../machines/app.selectors';
import { countProblems } from '../../model/feedSelectors';
import { selectIsLiveReady } from '../../machines/liveUpdates.selectors';
import type { SessionActorRef } from '../../machines/session.machine';
import { selectTokenSubjectTail } from '../../machines/session.selectors';
import { APP_VERSION } from '../../schemas/constants';
import { useUiConfig } from '../AppContext';

export function Footer({ app, session }: { app: AppActorRef; session: SessionActorRef }) {
  const { host } = useUiConfig();
  const live = useSelector(app, selectLiveUpdates);
  const toasts = useSelector(app, selectToasts);
  const ready = useSelector(live, (s) => (s ? selectIsLiveReady(s) : false));
  // The errors shown in this session: the error toasts, and the problem rows the discussion panels show now.
  const toastErrors = useSelector(toasts, (s) => s?.context.errorCount ?? 0);
  const standard = useSelector(app, selectStandardDiscussion);
  const hybrid = useSelector(app, selectHybridDiscussion);
  const standardProblems = useSelector(standard, (s) => (s ? countProblems(s.context.feed) : 0));
  const hybridProblems = useSelector(hybrid, (s) => (s ? countProblems(s.context.feed) : 0));
  const errors = toastErrors + standardProblems + hybridProblems;
  const subjectTail = useSelector(session, selectTokenSubjectTail);
  return (
    <footer className="footer">
      <span className="footer__version" title={`Agora version ${APP_VERSION}`}>
        v{APP_VERSION}
      </span>
      <span
        className={`footer__live footer__live--${ready ? 'ready' : 'idle'}`}
        role="status"
        aria-label={`Live updates: ${ready ? 'Ready' : 'Idle'}`}
      >
        <span className="dot" aria-hidden="true" />
        {ready ? 'Ready' : 'Idle'}
      </span>
      <span
        className={errors > 0 ? 'footer__errors footer__errors--some' : 'footer__errors'}
        title="Errors shown in this session, with the problem rows of the discussion"
      >
        {errors} error{errors === 1 ? '' : 's'}
      </span>
      {/* Where the app talks to and who is signed in: kept (docs/product.md#workspace-screens) but quiet, explained by tooltips. */}
      <span className="footer__detail footer__host" title="Server this app is connected to">
        {host}
      </span>
      {subjectTail && (
        <span className="footer__detail" title="Signed-in user id (last characters)">
          user …{subjectTail}
        </span>
      )}
    </footer>
  );
}
