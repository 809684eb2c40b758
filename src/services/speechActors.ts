// The speech charts with their actors on the real API (README 'Voices'): the Models dialog's 'Speech' section and
// the editor's voice field.
import { fromPromise } from 'xstate';
import { agentVoiceMachine } from '../machines/agentVoice.machine';
import { sectionActors } from '../machines/kit/connectionSection';
import { speechConnectionsMachine } from '../machines/speechConnections.machine';
import type { SpeechApi } from './speechApi';

export function speechConnectionsLogic(api: SpeechApi) {
  return speechConnectionsMachine.provide({
    actors: sectionActors({
      load: api.listSpeechConnections,
      test: api.testSpeechConnection,
      save: api.saveSpeechConnection,
      remove: api.deleteSpeechConnection,
    }),
  });
}

export function agentVoiceLogic(api: SpeechApi) {
  return agentVoiceMachine.provide({
    actors: {
      loadVoiceChoices: fromPromise(async ({ input }) => {
        const [connections, voice] = await Promise.all([api.listSpeechConnections(), api.getAgentVoice(input)]);
        return { connections, voice };
      }),
      saveAgentVoice: fromPromise(({ input }) => api.saveAgentVoice(input)),
      speakSample: fromPromise(({ input }) => api.voiceSample(input)),
    },
  });
}
