// The REST calls of speech connections and agent voices (README 'Voices'), on the one HTTP helper; each answer
// checked by its schema.
import type {
  AgentVoiceUpdate,
  SpeechConnectionCreate,
  SpeechConnectionTestBody,
  SpeechConnectionUpdate,
} from '../schemas/speechConnections';
import type { Http } from './http';
import { lazyAsk } from './lazyAsk';

export function createSpeechApi({ request }: Pick<Http, 'request'>) {
  const enc = encodeURIComponent;
  const ask = lazyAsk(request);
  return {
    listSpeechConnections: async () =>
      (await ask('GET', '/speech-connections', 'speechConnectionList', { retry: true })).connections,
    testSpeechConnection: (body: SpeechConnectionTestBody) =>
      ask('POST', '/speech-connections/test', 'speechConnectionTestResult', { json: body }),
    saveSpeechConnection: ({
      id,
      body,
    }: {
      id: string | null;
      body: SpeechConnectionCreate | SpeechConnectionUpdate;
    }) =>
      id
        ? ask('PATCH', `/speech-connections/${enc(id)}`, 'speechConnection', { json: body })
        : ask('POST', '/speech-connections', 'speechConnection', { json: body }),
    deleteSpeechConnection: ({ id }: { id: string }) => ask('DELETE', `/speech-connections/${enc(id)}`, 'anything'),
    voiceSample: ({ connectionId, voice }: { connectionId: string; voice: string }) =>
      ask('POST', `/speech-connections/${enc(connectionId)}/sample`, 'voiceSampleAnswer', { json: { voice } }),
    getAgentVoice: async ({ agentId }: { agentId: string }) =>
      (await ask('GET', `/agents/${enc(agentId)}/voice`, 'agentVoiceAnswer')).voice,
    saveAgentVoice: async ({ agentId, body }: { agentId: string; body: AgentVoiceUpdate | null }) =>
      body
        ? (await ask('PUT', `/agents/${enc(agentId)}/voice`, 'agentVoiceAnswer', { json: body })).voice
        : (await ask('DELETE', `/agents/${enc(agentId)}/voice`, 'agentVoiceAnswer')).voice,
  };
}
export type SpeechApi = ReturnType<typeof createSpeechApi>;
