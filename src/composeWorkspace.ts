// The signed-in workspace's part of the composition root, loaded after sign-in with the live chunk: the canvas's
// workspace, the Models dialog and the Evaluate dialog with their real services. composeApp hands it the HTTP client
// and the API it already built for the sign-in screen.
import type { LiveLogic } from './machines/app.machine';
import { workspaceMachine } from './machines/workspace.machine';
import type { Api } from './services/api';
import { builtinModelsLogic } from './services/builtinModelsActors';
import { createCanvasActors } from './services/canvasActors';
import { downloadBlob } from './services/download';
import { createEvalLogic } from './services/evalApi';
import { createPanelsLogic } from './services/panelsApi';
import type { Http } from './services/http';
import { createModelsApi, createModelsLogic } from './services/modelsApi';
import { speechConnectionsLogic } from './services/speechActors';
import { createSpeechApi } from './services/speechApi';
import { toolConnectionsLogic } from './services/toolsActors';
import { createToolsApi } from './services/toolsApi';
import { fromPromise } from 'xstate';

export interface WorkspaceServices {
  http: Http;
  api: Api;
  /** Hands an exported file to the user (a download by default). */
  saveFile?: (blob: Blob, fileName: string) => void;
}

export function createWorkspaceLogic({
  http,
  api,
  saveFile,
}: WorkspaceServices): Pick<LiveLogic, 'workspace' | 'models' | 'evaluation' | 'panelSave' | 'panels' | 'apiTokens'> {
  return {
    workspace: workspaceMachine.provide({
      actors: {
        loadAgents: fromPromise(() => api.listAgents()),
        loadConnections: fromPromise(() => api.listConnections()),
        loadStats: fromPromise(() => api.monitorStats()),
        // Positions, connections, auto-connect, deletion, and the editor with its recorder.
        ...createCanvasActors({ api }),
      },
    }),
    models: createModelsLogic(
      createModelsApi(http),
      builtinModelsLogic(http),
      speechConnectionsLogic(createSpeechApi(http)),
      toolConnectionsLogic(createToolsApi(http)),
    ),
    evaluation: createEvalLogic({ http, listModels: () => api.listModels(), saveFile: saveFile ?? downloadBlob }),
    ...createPanelsLogic({ http }),
  };
}
