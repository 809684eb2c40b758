// The right-hand panel, loaded on demand (React.lazy in the shell): the standard panel, or the hybrid panel when
// the view is switched to Hybrid.
import { useSelector } from '@xstate/react';
import type { AppActorRef } from '../../machines/app.machine';
import { selectAudioQueue, selectHybridDiscussion, selectSession, selectStandardDiscussion, selectWorkspace } from '../../machines/app.selectors';
import { PanelLoading } from '../shell/PanelLoading';
import HybridPanel from './hybrid/HybridPanel';
import StandardPanel from './standard/StandardPanel';
import './discussion.css';

export default function DiscussionPanel({ app, hybrid }: { app: AppActorRef; hybrid: boolean }) {
  const standard = useSelector(app, selectStandardDiscussion);
  const hybridActor = useSelector(app, selectHybridDiscussion);
  const workspace = useSelector(app, selectWorkspace);
  const session = useSelector(app, selectSession);
  const audio = useSelector(app, selectAudioQueue);
  if (!session) return <PanelLoading />;
  if (hybrid) return hybridActor ? <HybridPanel discussion={hybridActor} workspace={workspace} session={session} audio={audio} /> : <PanelLoading />;
  return standard ? <StandardPanel discussion={standard} workspace={workspace} session={session} audio={audio} /> : <PanelLoading />;
}
