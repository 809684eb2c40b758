// The main screen: top bar, the canvas on the left, the 450 px discussion panel on the right, the footer. On a
// narrow screen the panel can be hidden to an edge tab, giving the canvas the whole width.
import { useSelector } from '@xstate/react';
import { lazy, Suspense } from 'react';
import {
  selectApiTokens,
  selectEvaluation,
  selectIsHybridView,
  selectInvite,
  selectIsPanelShown,
  selectJoin,
  selectModels,
  selectNavigation,
  selectProfile,
  selectPanelSave,
  selectPanels,
  selectWorkspace,
} from '../../machines/app.selectors';
import { selectIsApiTokensOpen } from '../../machines/apiTokens.selectors';
import { selectIsInviteOpen, selectIsProfileOpen, selectJoinPage } from '../../machines/rooms.selectors';
import { selectUserEmail } from '../../machines/session.selectors';
import { selectIsPanelSaveOpen, selectIsPanelsOpen } from '../../machines/panels.selectors';
import { selectAgents } from '../../machines/workspace.selectors';
import { selectIsEvaluationOpen } from '../../machines/evaluation.selectors';
import { selectAddressPage } from '../../machines/navigation.machine';
import { selectIsDialogOpen } from '../../machines/models.selectors';
import type { SessionActorRef } from '../../machines/session.machine';
import { useAppActor } from '../AppContext';
import { WorkspaceCanvas } from '../canvas/WorkspaceCanvas';
import { AddressPage } from './AddressPage';
import { DevPanel } from './DevPanel';
import { PanelLoading } from './PanelLoading';
import { Footer } from './Footer';
import { TopBar } from './TopBar';
import { useFocusRescue } from '../common/focus';

// The panel and its libraries are a chunk of their own, fetched after sign-in.
const DiscussionPanel = lazy(() => import('../discussion/DiscussionPanel'));
// The Models dialog is fetched the first time it opens.
const ModelsDialog = lazy(() => import('../models/ModelsDialog'));
// So is the Evaluate dialog.
const EvalDialog = lazy(() => import('../eval/EvalDialog'));
// And the saved panels' and API tokens' dialogs.
const SavePanelDialog = lazy(() => import('../panels/SavePanelDialog'));
const PanelsDialog = lazy(() => import('../panels/PanelsDialog'));
const ApiTokensDialog = lazy(() => import('../panels/ApiTokensDialog'));
// And the room's: the profile, Invite and /join.
const ProfileDialog = lazy(() => import('../rooms/ProfileDialog'));
const InviteDialog = lazy(() => import('../rooms/InviteDialog'));
const JoinPage = lazy(() => import('../rooms/JoinPage'));
const NO_AGENTS: never[] = [];

export function Shell({ session }: { session: SessionActorRef }) {
  const app = useAppActor();
  // After sign-in the focus lands on the first action, and is never left on the page body.
  useFocusRescue();
  const panelShown = useSelector(app, selectIsPanelShown);
  const hybrid = useSelector(app, selectIsHybridView);
  const models = useSelector(app, selectModels);
  const modelsOpen = useSelector(models, (s) => (s ? selectIsDialogOpen(s) : false));
  const evaluation = useSelector(app, selectEvaluation);
  const evaluationOpen = useSelector(evaluation, (s) => (s ? selectIsEvaluationOpen(s) : false));
  const panelSave = useSelector(app, selectPanelSave);
  const panelSaveOpen = useSelector(panelSave, (s) => (s ? selectIsPanelSaveOpen(s) : false));
  const panels = useSelector(app, selectPanels);
  const panelsOpen = useSelector(panels, (s) => (s ? selectIsPanelsOpen(s) : false));
  const apiTokens = useSelector(app, selectApiTokens);
  const apiTokensOpen = useSelector(apiTokens, (s) => (s ? selectIsApiTokensOpen(s) : false));
  const profile = useSelector(app, selectProfile);
  const profileOpen = useSelector(profile, (s) => (s ? selectIsProfileOpen(s) : false));
  const email = useSelector(session, selectUserEmail);
  const invite = useSelector(app, selectInvite);
  const inviteOpen = useSelector(invite, (s) => (s ? selectIsInviteOpen(s) : false));
  const join = useSelector(app, selectJoin);
  const joinShown = useSelector(join, (s) => (s ? selectJoinPage(s) !== null : false));
  const workspace = useSelector(app, selectWorkspace);
  const agents = useSelector(workspace, (s) => (s ? selectAgents(s) : NO_AGENTS));
  const navigation = useSelector(app, selectNavigation);
  const page = useSelector(navigation, (s) => (s ? selectAddressPage(s) : null));
  return (
    <div className="shell">
      <TopBar app={app} session={session} />
      <DevPanel app={app} />
      {navigation && page ? (
        <AddressPage route={page} navigation={navigation} />
      ) : (
        <div className="shell__body">
          <main className="shell__canvas">
            <WorkspaceCanvas app={app} />
          </main>
          {panelShown ? (
            <Suspense fallback={<PanelLoading />}>
              <DiscussionPanel app={app} hybrid={hybrid} />
            </Suspense>
          ) : (
            // Hidden, the panel leaves a tab on the edge, so it is one click away without the top bar.
            <button type="button" className="panel-edge-tab" onClick={() => app.send({ type: 'view.panel.toggle' })}>
              <span>{hybrid ? 'Hybrid discussion' : 'Discussion'}</span>
            </button>
          )}
        </div>
      )}
      <Footer app={app} session={session} />
      {models && modelsOpen && (
        <Suspense fallback={null}>
          <ModelsDialog models={models} />
        </Suspense>
      )}
      {evaluation && evaluationOpen && (
        <Suspense fallback={null}>
          <EvalDialog actor={evaluation} />
        </Suspense>
      )}
      {panelSave && panelSaveOpen && (
        <Suspense fallback={null}>
          <SavePanelDialog actor={panelSave} agents={agents} />
        </Suspense>
      )}
      {panels && panelsOpen && (
        <Suspense fallback={null}>
          <PanelsDialog actor={panels} agents={agents} />
        </Suspense>
      )}
      {apiTokens && apiTokensOpen && (
        <Suspense fallback={null}>
          <ApiTokensDialog actor={apiTokens} />
        </Suspense>
      )}
      {profile && profileOpen && (
        <Suspense fallback={null}>
          <ProfileDialog actor={profile} email={email} />
        </Suspense>
      )}
      {invite && inviteOpen && (
        <Suspense fallback={null}>
          <InviteDialog actor={invite} />
        </Suspense>
      )}
      {join && joinShown && (
        <Suspense fallback={null}>
          <JoinPage actor={join} />
        </Suspense>
      )}
    </div>
  );
}
