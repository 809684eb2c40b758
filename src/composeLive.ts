// The signed-in half of the composition root, loaded after sign-in (its own chunk): the live updates, the audio
// queue and both discussion panels with their real services. composeApp hands it the services it already built.
import type { LiveLogic } from './machines/app.machine';
import { withLiveSocket } from './machines/liveUpdates.machine';
import { liveClientFrame, liveServerFrame } from './schemas/liveUpdates';
import { createAudioQueueLogic } from './services/audioPlayer';
import { createEndpointProbe, type EndpointProbeDeps } from './services/endpointProbe';
import { createHistoryLogic } from './services/historyActors';
import { createAddressBar, noAddressBar, type AddressWindow } from './services/addressBar';
import { navigationMachine } from './machines/navigation.machine';
import { createHybridDiscussionLogic } from './services/hybridDiscussionActors';
import { createHybridSettingsStore, createPanelSettingsStore } from './services/panelSettingsStore';
import type { FromSocket } from './services/socket';
import { createStandardDiscussionLogic } from './services/standardDiscussionActors';
import { createSourcesApi } from './services/sourcesApi';
import { sourcesLogic } from './services/sourcesActors';
import type { Api } from './services/api';
import { createDiscussionApi } from './services/discussionApi';
import { createSharesApi } from './services/sharesApi';
import { createShareDialogLogic } from './services/shareActors';
import { createRoomsLogic } from './services/roomsApi';
import { downloadBlob } from './services/download';
import type { Http } from './services/http';
import type { ModelConnection } from './schemas/modelConnections';

export interface LiveServices {
  http: Http;
  /** The shell's REST calls (api.ts), of which the panels read one agent. */
  api: Pick<Api, 'getAgent'>;
  /** The model connections, to name each agent's model in an export. */
  listConnections?: () => Promise<ModelConnection[]>;
  fromSocket: FromSocket;
  probe: EndpointProbeDeps;
  fetch?: typeof fetch;
  /** The signed-in user's token (a source's upload is sent with XMLHttpRequest, for its progress). */
  getToken: () => string | null;
  /** Whose saved panel settings to use. */
  userId: () => string | null;
  /** Hands an exported file to the user (a download by default). */
  saveFile?: (blob: Blob, fileName: string) => void;
  /** The window whose address follows the views; none writes no address (services/addressBar.ts). */
  address?: AddressWindow;
}

export function createLiveLogic(
  s: LiveServices,
): Omit<LiveLogic, 'workspace' | 'models' | 'evaluation' | 'panelSave' | 'panels' | 'apiTokens'> {
  const saveFile = s.saveFile ?? downloadBlob;
  const discussions = createDiscussionApi(s.http);
  // One Share dialog logic for History's viewer and both panels' finished runs.
  const share = createShareDialogLogic(createSharesApi(s.http));
  return {
    liveUpdates: withLiveSocket(s.fromSocket(liveServerFrame, liveClientFrame)),
    audioQueue: createAudioQueueLogic({ fetch: s.fetch }),
    sources: sourcesLogic(createSourcesApi({ request: s.http.request, getToken: s.getToken })),
    standardDiscussion: createStandardDiscussionLogic({
      fromSocket: s.fromSocket,
      probeEndpoint: createEndpointProbe(s.probe),
      getAgent: s.api.getAgent,
      listConnections: s.listConnections,
      settings: createPanelSettingsStore(s.userId),
      saveFile,
      share,
    }),
    hybridDiscussion: createHybridDiscussionLogic({
      fromSocket: s.fromSocket,
      loadModes: discussions.hybridModes,
      saveFile,
      getAgent: s.api.getAgent,
      listConnections: s.listConnections,
      settings: createHybridSettingsStore(s.userId),
      share,
    }),
    history: createHistoryLogic({
      api: discussions,
      share,
      saveFile,
      listConnections: s.listConnections,
    }),
    navigation: navigationMachine.provide({
      actors: { address: s.address ? createAddressBar(s.address) : noAddressBar },
    }),
    // The profile, Invite and /join charts; /join/{token} is read from the page's address until the address actor
    // (issue 43, addresses) owns it.
    ...createRoomsLogic({ http: s.http }),
  };
}
