// Runs the editor under a stand-in parent with every I/O actor replaced by a controllable double.
import { vi } from 'vitest';
import { createActor, fromCallback, fromPromise, setup, type AnyEventObject } from 'xstate';
import { agentDeletionMachine } from '../../src/machines/agentDeletion.machine';
import { editorMachine, type EditorActorRef, type EditorInput } from '../../src/machines/editor.machine';
import { referenceAudioMachine, type ReferenceAudioActorRef } from '../../src/machines/referenceAudio.machine';
import {
  recorderMachine,
  type MicrophoneCommand,
  type MicrophoneEvent,
  type MicrophoneInput,
} from '../../src/machines/recorder.machine';
import type { Agent } from '../../src/schemas/agents';
import type { AudioItem } from '../../src/schemas/audio';
import type { ToolCatalogServer } from '../../src/model/agentTools';
import { BUILTIN_TOOLS } from '../../src/schemas/tools';
import type { ModelOption } from '../../src/schemas/system';

export const agentFixture: Agent = {
  id: 'agent-0123456789abcdef',
  name: 'Ada',
  role: 'Analyst',
  prompt: 'Think carefully.',
  model: 'llama3.1:8b',
  personality: 'analytical',
  capabilities: ['data_analysis', 'critical_thinking'],
  status: null,
  x: 10,
  y: 20,
  created_at: '2025-01-01T10:00:00Z',
};

export const audioFixture: AudioItem[] = [
  {
    id: 'au1',
    name: 'Calm',
    audio_url: '/media/au1.wav',
    is_default: true,
    transcript: 'Hello there, this is a calm reference voice for cloning purposes only.',
  },
  { id: 'au2', name: 'Fresh', audio_url: '/media/au2.wav', is_default: false, transcript: null },
];

export const modelsFixture: ModelOption[] = [
  { value: 'offline', label: 'Built-in offline model (no LLM)', offline: true },
  { value: 'llama3.1:8b', label: 'llama3.1:8b', offline: false },
];

/** An async function whose answers the test chooses: a value, a rejection, or a pending promise settled later. */
export function controllable<I, O>(name: string, initial?: (input: I) => O | Promise<O>) {
  const calls: I[] = [];
  let impl: (input: I) => O | Promise<O> = initial ?? (() => Promise.reject(new Error(`${name}: no answer queued`)));
  const pending: { resolve: (v: O) => void; reject: (e: unknown) => void }[] = [];
  return {
    calls,
    answer(fn: (input: I) => O | Promise<O>) {
      impl = fn;
    },
    hold() {
      impl = () => new Promise<O>((resolve, reject) => pending.push({ resolve, reject }));
    },
    /** Settles the latest call; earlier ones belong to actors that were already replaced. */
    resolve(v: O) {
      pending.splice(0).pop()!.resolve(v);
    },
    reject(e: unknown) {
      pending.splice(0).pop()!.reject(e);
    },
    logic: fromPromise<O, I>(async ({ input }) => {
      calls.push(input);
      return impl(input);
    }),
  };
}

/** GET /tools: the built-ins, and a tool server that could not be listed. */
export const toolCatalogFixture: ToolCatalogServer[] = [
  {
    id: 'builtin',
    name: 'Built-in tools',
    kind: 'builtin',
    tools: BUILTIN_TOOLS.map((t) => ({ ...t, id: `builtin/${t.name}` })),
  },
  { id: 'conn-9', name: 'Weather MCP', kind: 'mcp', tools: [], error: 'Connection refused at 127.0.0.1:9' },
];

export const httpError = (status: number, detail?: string, text = 'Error') =>
  Object.assign(new Error(detail ?? text), { status, detail, text });
export const networkError = () => new TypeError('Failed to fetch');

type UploadIn = { agentId: string; name: string; file: Blob; fileName: string };
type UploadOut = AudioItem & { transcription_error?: string | null };
type TranscribeOut = { success: boolean; transcript?: string | null; message?: string | null };

export function fakeAgentApi() {
  return {
    loadModels: controllable<unknown, ModelOption[]>('loadModels', () => modelsFixture),
    loadToolCatalog: controllable<unknown, ToolCatalogServer[]>('loadToolCatalog', () => toolCatalogFixture),
    loadAgent: controllable<{ agentId: string }, Agent>('loadAgent', () => agentFixture),
    createAgent: controllable<unknown, Agent>('createAgent', (b) => ({
      ...agentFixture,
      ...(b as object),
      id: 'new-agent-id',
    })),
    updateAgent: controllable<{ agentId: string; body: unknown }, Agent>('updateAgent', ({ body }) => ({
      ...agentFixture,
      ...(body as object),
    })),
    deleteAgent: controllable<{ agentId: string }, unknown>('deleteAgent', () => ({ success: true })),
    loadAudio: controllable<{ agentId: string }, AudioItem[]>('loadAudio', () => audioFixture),
    uploadAudio: controllable<UploadIn, UploadOut>('uploadAudio', (i) => ({
      id: 'au3',
      name: i.name,
      audio_url: '/media/au3.wav',
      is_default: false,
      transcript: 'Uploaded words',
    })),
    deleteAudio: controllable<{ audioId: string }, unknown>('deleteAudio', () => ({ success: true })),
    setDefaultAudio: controllable<{ audioId: string }, unknown>('setDefaultAudio', () => ({ success: true })),
    transcribeAudio: controllable<{ audioId: string }, TranscribeOut>('transcribeAudio', () => ({
      success: true,
      transcript: 'Fresh words',
    })),
    batchTranscribe: controllable<{ agentId: string }, { count: number }>('batchTranscribe', () => ({ count: 1 })),
  };
}
export type FakeAgentApi = ReturnType<typeof fakeAgentApi>;

/** A microphone double: the test speaks for it with `send`, and sees the commands it was given. */
export function fakeMicrophone() {
  const mic = {
    send: null as ((e: MicrophoneEvent) => void) | null,
    commands: [] as AnyEventObject[],
    logic: fromCallback<MicrophoneCommand, MicrophoneInput>(({ sendBack, receive }) => {
      mic.send = sendBack;
      receive((c) => mic.commands.push(c));
      return () => {
        mic.send = null;
      };
    }),
  };
  return mic;
}

export function referenceAudioWithFakes(api: FakeAgentApi, microphone: ReturnType<typeof fakeMicrophone>['logic']) {
  const recorder = recorderMachine.provide({ actors: { microphone, uploadRecording: api.uploadAudio.logic } });
  return referenceAudioMachine.provide({
    actors: {
      loadAudio: api.loadAudio.logic,
      uploadAudio: api.uploadAudio.logic,
      deleteAudio: api.deleteAudio.logic,
      setDefaultAudio: api.setDefaultAudio.logic,
      transcribeAudio: api.transcribeAudio.logic,
      batchTranscribe: api.batchTranscribe.logic,
      recorder,
    },
  });
}

/** A referenceAudio chart on its own (no editor around it), over the same fakes. */
export function startReferenceAudio(agentId: string | null, before?: (api: FakeAgentApi) => void) {
  const api = fakeAgentApi();
  before?.(api);
  const microphone = fakeMicrophone();
  const audio = createActor(referenceAudioWithFakes(api, microphone.logic), { input: { agentId } }).start();
  return { audio, api, microphone };
}

export function editorWithFakes(api: FakeAgentApi, microphone: ReturnType<typeof fakeMicrophone>['logic']) {
  return editorMachine.provide({
    actors: {
      loadModels: api.loadModels.logic,
      loadToolCatalog: api.loadToolCatalog.logic,
      loadAgent: api.loadAgent.logic,
      createAgent: api.createAgent.logic as never,
      updateAgent: api.updateAgent.logic as never,
      agentDeletion: agentDeletionMachine.provide({ actors: { deleteAgent: api.deleteAgent.logic } }),
      referenceAudio: referenceAudioWithFakes(api, microphone),
    },
  });
}

/** The editor's reference-audio child, for reading its snapshot. */
export const audioSnap = (editor: EditorActorRef) =>
  (editor.getSnapshot().children.referenceAudio as ReferenceAudioActorRef).getSnapshot();

/** `before` may change the fakes' answers before the editor starts (its first calls go out at once). */
export function startEditor(
  input: EditorInput,
  before?: (api: FakeAgentApi) => void,
  microphoneLogic?: ReturnType<typeof fakeMicrophone>['logic'],
) {
  const api = fakeAgentApi();
  before?.(api);
  const microphone = fakeMicrophone();
  const editor = editorWithFakes(api, microphoneLogic ?? microphone.logic);
  const heard: AnyEventObject[] = [];
  const parent = setup({ actors: { editor } }).createMachine({
    invoke: { id: 'editor', src: 'editor', input },
    on: { '*': { actions: ({ event }) => heard.push(event) } },
  });
  const root = createActor(parent).start();
  const ref = root.getSnapshot().children.editor as EditorActorRef;
  return { root, editor: ref, api, heard, microphone };
}

/** Lets resolved promises land (works with fake timers too). */
export const settle = () => vi.advanceTimersByTimeAsync(0);
