// The right-hand panel, loaded on demand (React.lazy in the shell): the standard panel, or the hybrid panel when
// the view is switched to Hybrid.
import { useSelector } from '@xstate/react';
import type { AppActorRef } from '../../machines/app.machine';
import {
  selectAudioQueue,
  selectHistory,
  selectHybridDiscussion,
  selectModels,
  selectSession,
  selectSources,
  selectStandardDiscussion,
  selectWorkspace,
} from '../../machines/app.selectors';
import { selectIsBusy } from '../../machines/discussionPanel.selectors';
import { selectSettingsLocked } from '../../machines/discussionPanel.selectors';
import { GetRealModelCard } from '../models/GetRealModelCard';
import { ModelsInUseNotice } from '../models/ModelsInUseNotice';
import { useModelsInUse } from '../models/useModelsInUse';
import { PanelLoading } from '../shell/PanelLoading';
import { HistoryDialog } from './history/HistoryDialog';
import { PassageDialog } from './sources/PassageDialog';
import { SourcesSection } from './sources/SourcesSection';
import './sources/sources.css';
import { RunningOffer } from './common/RunningOffer';
import HybridPanel from './hybrid/HybridPanel';
import StandardPanel from './standard/StandardPanel';
import './discussion.css';

export default function DiscussionPanel({ app, hybrid }: { app: AppActorRef; hybrid: boolean }) {
  const standard = useSelector(app, selectStandardDiscussion);
  const hybridActor = useSelector(app, selectHybridDiscussion);
  const workspace = useSelector(app, selectWorkspace);
  const session = useSelector(app, selectSession);
  const audio = useSelector(app, selectAudioQueue);
  const history = useSelector(app, selectHistory);
  const models = useSelector(app, selectModels);
  const sources = useSelector(app, selectSources);
  // The onboarding hint is for before a run: while one is on, the feed has the room.
  const standardBusy = useSelector(standard, (s) => (s ? selectIsBusy(s) : false));
  const hybridLocked = useSelector(hybridActor, (s) => (s ? selectSettingsLocked(s) : false));
  const running = hybrid ? hybridLocked : standardBusy;
  const use = useModelsInUse(models, workspace, !running);
  const unreachable = use?.unreachable ?? [];
  if (!session) return <PanelLoading />;
  const showHistory = history ? () => history.send({ type: 'history.show' }) : undefined;
  // Quiet notices at the top of the panel: a run still going (re-attach), and the 'Get a real model' card.
  const notice = (
    <>
      <RunningOffer history={history} />
      {!running && <GetRealModelCard models={models} where="panel" />}
      {!running && <ModelsInUseNotice use={use} />}
    </>
  );
  // Under Start: the person's documents the next discussion reads (during a run, added for the next one).
  const afterStart = sources ? <SourcesSection sources={sources} running={running} /> : null;
  const panel = hybrid ? (
    hybridActor ? (
      <HybridPanel
        discussion={hybridActor}
        workspace={workspace}
        audio={audio}
        onShowHistory={showHistory}
        notice={notice}
        afterStart={afterStart}
        unreachable={unreachable}
      />
    ) : (
      <PanelLoading />
    )
  ) : standard ? (
    <StandardPanel
      discussion={standard}
      workspace={workspace}
      session={session}
      audio={audio}
      onShowHistory={showHistory}
      notice={notice}
      afterStart={afterStart}
      unreachable={unreachable}
    />
  ) : (
    <PanelLoading />
  );
  return (
    <>
      {panel}
      {history && <HistoryDialog history={history} workspace={workspace} />}
      {sources && <PassageDialog sources={sources} />}
    </>
  );
}
