// The real I/O behind the canvas: the workspace's canvas actors and the editor (with its recorder), built on
// the one REST client (api.ts). Passed to workspaceMachine.provide({ actors: { ...loads, ...createCanvasActors(…) } }).
import { fromPromise } from 'xstate';
import { agentDeletionMachine } from '../machines/agentDeletion.machine';
import { autoConnectMachine } from '../machines/autoConnect.machine';
import { connectionCreateMachine } from '../machines/connectionCreate.machine';
import { connectionDeleteMachine } from '../machines/connectionDelete.machine';
import { positionSaveMachine } from '../machines/positionSave.machine';
import { editorMachine } from '../machines/editor.machine';
import { referenceAudioMachine } from '../machines/referenceAudio.machine';
import { recorderMachine, type UploadRecordingInput } from '../machines/recorder.machine';
import { fallbackPosition } from '../shared/canvasPlacement';
import type { AgentUpdate, AgentCreateRequest } from '../schemas/agents';
import type { Api } from './api';
import { createMicrophoneActor, type MediaDeps } from './recorder';
import { agentVoiceLogic } from './speechActors';

export interface CanvasActorDeps {
  api: Api;
  /** [0, 1) — Math.random in the app, a fixed sequence in tests. */
  random?: () => number;
  media?: MediaDeps;
}

/** The one agentDeletion chart, for the canvas's context menu and the editor's delete button alike. */
const agentDeletionWith = (api: Api) =>
  agentDeletionMachine.provide({
    actors: {
      countAgentAudio: fromPromise(
        async ({ input }: { input: { agentId: string } }) => (await api.listAudio(input.agentId)).length,
      ),
      deleteAgent: fromPromise(({ input }: { input: { agentId: string } }) => api.deleteAgent(input.agentId)),
    },
  });

export function createEditorActors(api: Api, media?: MediaDeps) {
  const uploadAudio = fromPromise(({ input }: { input: UploadRecordingInput }) => api.uploadAudio(input));
  const recorder = recorderMachine.provide({
    actors: { microphone: createMicrophoneActor(media), uploadRecording: uploadAudio },
  });
  return {
    loadModels: fromPromise(() => api.listModels()),
    loadToolCatalog: fromPromise(() => api.loadToolCatalog()),
    loadAgent: fromPromise(({ input }: { input: { agentId: string } }) => api.getAgent(input.agentId)),
    createAgent: fromPromise(({ input }: { input: AgentCreateRequest }) => api.createAgent(input)),
    updateAgent: fromPromise(({ input }: { input: { agentId: string; body: AgentUpdate } }) =>
      api.updateAgent(input.agentId, input.body),
    ),
    agentDeletion: agentDeletionWith(api),
    agentVoice: agentVoiceLogic(api),
    referenceAudio: referenceAudioMachine.provide({
      actors: {
        loadAudio: fromPromise(({ input }: { input: { agentId: string } }) => api.listAudio(input.agentId)),
        uploadAudio,
        deleteAudio: fromPromise(({ input }: { input: { audioId: string } }) => api.deleteAudio(input.audioId)),
        setDefaultAudio: fromPromise(({ input }: { input: { audioId: string } }) => api.setDefaultAudio(input.audioId)),
        transcribeAudio: fromPromise(({ input }: { input: { audioId: string } }) => api.transcribeAudio(input.audioId)),
        batchTranscribe: fromPromise(({ input }: { input: { agentId: string } }) => api.batchTranscribe(input.agentId)),
        recorder,
      },
    }),
  };
}

export function createCanvasActors({ api, random = Math.random, media }: CanvasActorDeps) {
  return {
    editor: editorMachine.provide({ actors: createEditorActors(api, media) }),
    positionSave: positionSaveMachine.provide({
      actors: {
        savePosition: fromPromise(({ input }: { input: { agentId: string; x: number; y: number } }) =>
          api.savePosition(input.agentId, { x: input.x, y: input.y }),
        ),
        pickFallbackPosition: fromPromise(async () => fallbackPosition(random(), random())),
      },
    }),
    connectionCreate: connectionCreateMachine.provide({
      actors: {
        createConnection: fromPromise(({ input }: { input: { from: string; to: string } }) =>
          api.createConnection(input.from, input.to),
        ),
      },
    }),
    connectionDelete: connectionDeleteMachine.provide({
      actors: {
        deleteConnections: fromPromise<unknown, { connectionIds: string[] }>(({ input }) =>
          Promise.all(input.connectionIds.map((id) => api.deleteConnection(id))),
        ),
      },
    }),
    autoConnect: autoConnectMachine.provide({ actors: { postAutoConnect: fromPromise(() => api.autoConnect()) } }),
    agentDeletion: agentDeletionWith(api),
  };
}

export type CanvasActors = ReturnType<typeof createCanvasActors>;
