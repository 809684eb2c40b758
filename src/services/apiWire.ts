// The schemas api.ts checks its answers with, in a module of their own so that zod and these schemas load with
// the first API call instead of in the JavaScript that shows the sign-in screen (the sign-in bundle budget).
import { z } from 'zod';
// First: zod set to compile nothing at run time (the CSP forbids eval) before any of these parses.
import '../schemas/common';

export { loginResponse, user } from '../schemas/auth';
export { agent, agentList } from '../schemas/agents';
export { audioList, audioUploadResponse, batchTranscribeResponse, transcribeResponse } from '../schemas/audio';
export { autoConnectResponse, connection, connectionList, normalizeConnection } from '../schemas/connections';
export { health, modelsResponse, monitorStats, normalizeModels } from '../schemas/system';
export {
  modelConnection,
  modelConnectionList,
  modelConnectionTestResult,
  modelJob,
  modelJobList,
} from '../schemas/modelConnections';

export {
  agentVoiceAnswer,
  speechConnection,
  speechConnectionList,
  speechConnectionTestResult,
  voiceSampleAnswer,
} from '../schemas/speechConnections';
export { builtinModelFile, builtinModelsList, modelDownload } from '../schemas/builtinModels';
export {
  toolCatalog,
  toolConnection,
  toolConnectionList,
  toolConnectionTestResult,
} from '../schemas/toolConnections';

/** For answers nobody reads (a DELETE's echo): any JSON will do. */
export const anything = z.unknown();

export { evalFileCheck, evalRun, evalRunList } from '../schemas/eval';
export { embeddingSettings, passage, source, sourceList } from '../schemas/sources';
export { panel, panelList } from '../schemas/panels';
export { apiToken, apiTokenCreated, apiTokenList } from '../schemas/apiTokens';
export { inviteAccepted, inviteCreated } from '../schemas/rooms';
export { discussionHistory } from '../schemas/history';
