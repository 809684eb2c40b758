// The agent editor drawer (part 1 §2 'Agent editor', §4 'Editor', §5): create or edit one agent, with its
// reference voices. Three regions run side by side while the drawer is open:
//   models  — the model list from /models/ (fallback list when it fails)
//   form    — load (edit), edit fields, save, delete; a create closes the drawer 0.5 s after it succeeds, an
//             update stays open and says 'Saved' for SAVED_NOTICE_MS
//   audio   — the reference-audio list and its operations, the batch-transcription refetches, the recorder
// The parent (workspace) hears 'editor.saved' / 'editor.deleted' and sees the editor finish when it closes.
import { assign, fromPromise, raise, sendParent, sendTo, setup, spawnChild, type ActorRefFrom, type SnapshotFrom } from 'xstate';
import type { Agent, AgentCreate, AgentUpdate, Position } from '../schemas/agents';
import type { AudioItem, TranscribeResponse } from '../schemas/audio';
import {
  AGENT_PERSONALITIES,
  BATCH_TRANSCRIBE_REFETCH_MS,
  EDITOR_CLOSE_AFTER_CREATE_MS,
  FALLBACK_MODELS,
} from '../schemas/constants';
import { AUDIO_MESSAGES } from '../schemas/messages';
import type { ModelOption } from '../schemas/system';
import {
  agentDeleteMessage,
  agentLoadMessage,
  agentSaveMessage,
  audioDeleteMessage,
  audioSetDefaultMessage,
  audioUploadMessage,
  batchTranscribeMessage,
  audioListMessage,
  transcribeMessage,
} from '../model/agentFailures';
import { recorderMachine, type RecorderSavedEvent, type UploadRecordingInput } from './recorder.machine';
import { notProvided } from '../model/actorKit';

/** How long the drawer says 'Saved' after an update (the drawer stays open, so the user needs to be told). */
export const SAVED_NOTICE_MS = 2500;

export type EditorField = 'name' | 'role' | 'prompt' | 'model' | 'personality';
export type EditorFields = Record<EditorField, string>;
export type Personality = (typeof AGENT_PERSONALITIES)[number];

/** A create may carry where the new agent goes (the workspace picks a free place); the server stores it with the agent. */
export type EditorInput = { mode: 'create'; position?: Position } | { mode: 'edit'; agentId: string; agent?: Agent };

export interface UploadDraft {
  name: string;
  file: Blob | null;
  fileName: string;
}

export interface EditorContext {
  mode: 'create' | 'edit';
  agentId: string | null;
  /** Where a created agent goes (create mode; null lets the server choose). */
  position: Position | null;
  agent: Agent | null;
  fields: EditorFields;
  models: ModelOption[];
  modelsFromFallback: boolean;
  loadError: string | null;
  formError: string | null;
  audio: AudioItem[];
  audioError: string | null;
  audioNotice: string | null;
  upload: UploadDraft;
  /** The transcript the last upload or transcription returned, shown under the form. */
  lastTranscript: { name: string; text: string } | null;
  /** The item an operation (delete, set default, transcribe) is working on. */
  targetAudio: AudioItem | null;
}

export type EditorEvent =
  | { type: 'editor.field'; field: EditorField; value: string }
  | { type: 'editor.submit' }
  | { type: 'editor.close' }
  | { type: 'editor.retry' }
  | { type: 'editor.delete' }
  | { type: 'editor.delete.confirm' }
  | { type: 'editor.delete.cancel' }
  | { type: 'editor.dismissError' }
  | { type: 'audio.upload.name'; value: string }
  | { type: 'audio.upload.file'; file: Blob | null; fileName: string }
  | { type: 'audio.upload.submit' }
  | { type: 'audio.delete'; audioId: string }
  | { type: 'audio.delete.confirm' }
  | { type: 'audio.delete.cancel' }
  | { type: 'audio.setDefault'; audioId: string }
  | { type: 'audio.transcribe'; audioId: string }
  | { type: 'audio.transcribeAll' }
  | { type: 'audio.record' }
  | { type: 'audio.record.stop' }
  | { type: 'audio.dismiss' }
  | { type: 'audio.refetch' }
  | { type: 'audio.batch.started' }
  | RecorderSavedEvent;

/** What the editor tells whoever spawned it. */
export type EditorParentEvent =
  | { type: 'editor.saved'; mode: 'create' | 'edit'; agent: Agent }
  | { type: 'editor.deleted'; agentId: string };

export interface UploadAudioOutput extends AudioItem {
  transcription_error?: string | null;
}

const emptyFields: EditorFields = { name: '', role: '', prompt: '', model: '', personality: '' };
const emptyUpload: UploadDraft = { name: '', file: null, fileName: '' };

export const fieldsFromAgent = (a: Agent): EditorFields => ({
  name: a.name ?? '',
  role: a.role ?? '',
  prompt: a.prompt ?? '',
  model: a.model ?? '',
  personality: a.personality ?? '',
});

export const isPersonality = (v: string): v is Personality => (AGENT_PERSONALITIES as readonly string[]).includes(v);

/** The body of a create: every field trimmed (part 1 §5). */
export const createBody = (f: EditorFields): AgentCreate => ({
  name: f.name.trim(),
  role: f.role.trim(),
  prompt: f.prompt.trim(),
  model: f.model.trim(),
});

/** The body of an update: the same fields plus personality when one is chosen. */
export const updateBody = (f: EditorFields): AgentUpdate => ({
  ...createBody(f),
  ...(isPersonality(f.personality) ? { personality: f.personality } : {}),
});

export const isComplete = (f: EditorFields) => [f.name, f.role, f.prompt, f.model].every((v) => v.trim().length > 0);

const fallbackModels = (): ModelOption[] => FALLBACK_MODELS.map((m) => ({ value: m, label: m, offline: false }));

const [REFETCH_1, REFETCH_2, REFETCH_3] = BATCH_TRANSCRIBE_REFETCH_MS;


export const editorMachine = setup({
  types: {
    context: {} as EditorContext,
    events: {} as EditorEvent,
    input: {} as EditorInput,
  },
  actors: {
    loadModels: fromPromise<ModelOption[]>(notProvided('editor', 'loadModels')),
    loadAgent: fromPromise<Agent, { agentId: string }>(notProvided('editor', 'loadAgent')),
    createAgent: fromPromise<Agent, AgentCreate & Partial<Position>>(notProvided('editor', 'createAgent')),
    updateAgent: fromPromise<Agent, { agentId: string; body: AgentUpdate }>(notProvided('editor', 'updateAgent')),
    deleteAgent: fromPromise<unknown, { agentId: string }>(notProvided('editor', 'deleteAgent')),
    loadAudio: fromPromise<AudioItem[], { agentId: string }>(notProvided('editor', 'loadAudio')),
    uploadAudio: fromPromise<UploadAudioOutput, UploadRecordingInput>(notProvided('editor', 'uploadAudio')),
    deleteAudio: fromPromise<unknown, { audioId: string }>(notProvided('editor', 'deleteAudio')),
    setDefaultAudio: fromPromise<unknown, { audioId: string }>(notProvided('editor', 'setDefaultAudio')),
    transcribeAudio: fromPromise<TranscribeResponse, { audioId: string }>(notProvided('editor', 'transcribeAudio')),
    batchTranscribe: fromPromise<{ count: number }, { agentId: string }>(notProvided('editor', 'batchTranscribe')),
    recorder: recorderMachine,
  },
  delays: {
    closeAfterCreate: EDITOR_CLOSE_AFTER_CREATE_MS,
    savedNotice: SAVED_NOTICE_MS,
    refetchFirst: REFETCH_1,
    refetchSecond: REFETCH_2 - REFETCH_1,
    refetchThird: REFETCH_3 - REFETCH_2,
  },
  guards: {
    isEditMode: ({ context }) => context.mode === 'edit',
    isCreateMode: ({ context }) => context.mode === 'create',
    hasSavedAgent: ({ context }) => context.agentId !== null,
    isFormComplete: ({ context }) => isComplete(context.fields),
    isUploadIncomplete: ({ context }) => context.upload.name.trim() === '' || context.upload.file === null,
    isKnownAudio: ({ context, event }) =>
      'audioId' in event && context.audio.some((a) => a.id === event.audioId),
    wasTranscribed: ({ event }) => (event as { output?: TranscribeResponse }).output?.success === true,
    hasSomethingToTranscribe: ({ event }) => ((event as { output?: { count: number } }).output?.count ?? 0) > 0,
  },
  actions: {
    setField: assign({
      fields: ({ context, event }) =>
        event.type === 'editor.field' ? { ...context.fields, [event.field]: event.value } : context.fields,
    }),
    clearFormError: assign({ formError: null }),
    setUploadName: assign({
      upload: ({ context, event }) => (event.type === 'audio.upload.name' ? { ...context.upload, name: event.value } : context.upload),
    }),
    setUploadFile: assign({
      upload: ({ context, event }) =>
        event.type === 'audio.upload.file' ? { ...context.upload, file: event.file, fileName: event.fileName } : context.upload,
    }),
    clearUpload: assign({ upload: emptyUpload }),
    pickTargetAudio: assign({
      targetAudio: ({ context, event }) => ('audioId' in event ? context.audio.find((a) => a.id === event.audioId) ?? null : null),
    }),
    forgetTargetAudio: assign({ targetAudio: null }),
    dismissAudioMessages: assign({ audioError: null, audioNotice: null }),
    reportNameAndFileRequired: assign({ audioError: AUDIO_MESSAGES.nameAndFileRequired, audioNotice: null }),
    reportSaveBeforeUpload: assign({ audioError: AUDIO_MESSAGES.saveBeforeUpload, audioNotice: null }),
    reportSaveBeforeRecord: assign({ audioError: AUDIO_MESSAGES.saveBeforeRecord, audioNotice: null }),
    refetchAudio: raise({ type: 'audio.refetch' }),
    startRecorder: sendTo('recorder', { type: 'recorder.start' }),
    stopRecorder: sendTo('recorder', { type: 'recorder.stop' }),
    notifySaved: sendParent(
      (_, params: { mode: 'create' | 'edit'; agent: Agent }) => ({ type: 'editor.saved', ...params }) satisfies EditorParentEvent,
    ),
    notifyDeleted: sendParent((_, params: { agentId: string }) => ({ type: 'editor.deleted', ...params }) satisfies EditorParentEvent),
  },
}).createMachine({
  id: 'editor',
  context: ({ input }) => ({
    mode: input.mode,
    agentId: input.mode === 'edit' ? input.agentId : null,
    agent: input.mode === 'edit' ? input.agent ?? null : null,
    position: input.mode === 'create' ? input.position ?? null : null,
    fields: input.mode === 'edit' && input.agent ? fieldsFromAgent(input.agent) : emptyFields,
    models: [],
    modelsFromFallback: false,
    loadError: null,
    formError: null,
    audio: [],
    audioError: null,
    audioNotice: null,
    upload: emptyUpload,
    lastTranscript: null,
    targetAudio: null,
  }),
  initial: 'open',
  states: {
    open: {
      type: 'parallel',
      on: { 'editor.close': '#editor.closed' },
      states: {
        models: {
          initial: 'loading',
          states: {
            loading: {
              invoke: {
                id: 'loadModels',
                src: 'loadModels',
                onDone: {
                  target: 'ready',
                  actions: assign(({ event }) =>
                    event.output.length > 0 ? { models: event.output, modelsFromFallback: false } : { models: fallbackModels(), modelsFromFallback: true },
                  ),
                },
                onError: { target: 'ready', actions: assign({ models: fallbackModels, modelsFromFallback: true }) },
              },
            },
            ready: {},
          },
        },

        form: {
          initial: 'checking',
          states: {
            checking: {
              always: [{ guard: 'isEditMode', target: 'loading' }, { target: 'editing' }],
            },
            loading: {
              tags: ['loading'],
              invoke: {
                id: 'loadAgent',
                src: 'loadAgent',
                input: ({ context }) => ({ agentId: context.agentId! }),
                onDone: {
                  target: 'editing',
                  actions: assign(({ event }) => ({ agent: event.output, fields: fieldsFromAgent(event.output), loadError: null })),
                },
                onError: { target: 'loadFailed', actions: assign({ loadError: ({ event }) => agentLoadMessage(event.error) }) },
              },
            },
            loadFailed: {
              on: { 'editor.retry': 'loading' },
            },
            editing: {
              // After an update the form stays open; 'saved' is how long it says so.
              initial: 'idle',
              states: {
                idle: {},
                saved: { tags: ['saved'], after: { savedNotice: 'idle' } },
              },
              on: {
                'editor.field': { actions: 'setField' },
                'editor.submit': { guard: 'isFormComplete', target: 'saving', actions: 'clearFormError' },
                'editor.delete': { guard: 'isEditMode', target: 'confirmingDelete', actions: 'clearFormError' },
                'editor.dismissError': { actions: 'clearFormError' },
              },
            },
            saving: {
              tags: ['saving'],
              initial: 'choosing',
              states: {
                choosing: {
                  always: [{ guard: 'isCreateMode', target: 'creating' }, { target: 'updating' }],
                },
                creating: {
                  invoke: {
                    id: 'createAgent',
                    src: 'createAgent',
                    input: ({ context }) => ({ ...createBody(context.fields), ...(context.position ?? {}) }),
                    onDone: {
                      target: '#editor.open.form.created',
                      actions: [
                        assign(({ event }) => ({ agent: event.output, agentId: event.output.id })),
                        { type: 'notifySaved', params: ({ event }) => ({ mode: 'create' as const, agent: event.output }) },
                      ],
                    },
                    onError: {
                      target: '#editor.open.form.editing',
                      actions: assign({ formError: ({ event }) => agentSaveMessage(event.error, 'create') }),
                    },
                  },
                },
                updating: {
                  invoke: {
                    id: 'updateAgent',
                    src: 'updateAgent',
                    input: ({ context }) => ({ agentId: context.agentId!, body: updateBody(context.fields) }),
                    onDone: {
                      target: '#editor.open.form.editing.saved',
                      actions: [
                        assign(({ event }) => ({ agent: event.output, fields: fieldsFromAgent(event.output) })),
                        { type: 'notifySaved', params: ({ event }) => ({ mode: 'edit' as const, agent: event.output }) },
                      ],
                    },
                    onError: {
                      target: '#editor.open.form.editing',
                      actions: assign({ formError: ({ event }) => agentSaveMessage(event.error, 'edit') }),
                    },
                  },
                },
              },
            },
            created: {
              tags: ['created'],
              after: { closeAfterCreate: '#editor.closed' },
            },
            confirmingDelete: {
              on: {
                'editor.delete.confirm': 'deleting',
                'editor.delete.cancel': 'editing',
              },
            },
            deleting: {
              tags: ['deleting'],
              invoke: {
                id: 'deleteAgent',
                src: 'deleteAgent',
                input: ({ context }) => ({ agentId: context.agentId! }),
                onDone: {
                  target: '#editor.closed',
                  actions: { type: 'notifyDeleted', params: ({ context }) => ({ agentId: context.agentId! }) },
                },
                onError: { target: 'editing', actions: assign({ formError: ({ event }) => agentDeleteMessage(event.error) }) },
              },
            },
          },
        },

        audio: {
          initial: 'checking',
          on: {
            'audio.upload.name': { actions: 'setUploadName' },
            'audio.upload.file': { actions: 'setUploadFile' },
            'audio.dismiss': { actions: 'dismissAudioMessages' },
          },
          states: {
            checking: {
              always: [{ guard: 'hasSavedAgent', target: 'active' }, { target: 'unsaved' }],
            },
            // A new agent has no id yet: nothing can be attached to it.
            unsaved: {
              on: {
                'audio.upload.submit': [
                  { guard: 'isUploadIncomplete', actions: 'reportNameAndFileRequired' },
                  { actions: 'reportSaveBeforeUpload' },
                ],
                'audio.record': { actions: 'reportSaveBeforeRecord' },
              },
            },
            active: {
              type: 'parallel',
              entry: spawnChild('recorder', { id: 'recorder', input: ({ context }) => ({ agentId: context.agentId! }) }),
              on: {
                'audio.record': { actions: ['dismissAudioMessages', 'startRecorder'] },
                'audio.record.stop': { actions: 'stopRecorder' },
                'recorder.saved': { actions: ['refetchAudio', assign({ lastTranscript: null })] },
              },
              states: {
                list: {
                  initial: 'loading',
                  on: { 'audio.refetch': '.loading' },
                  states: {
                    loading: {
                      tags: ['audioLoading'],
                      invoke: {
                        id: 'loadAudio',
                        src: 'loadAudio',
                        input: ({ context }) => ({ agentId: context.agentId! }),
                        onDone: { target: 'ready', actions: assign({ audio: ({ event }) => event.output }) },
                        onError: { target: 'ready', actions: assign({ audioError: ({ event }) => audioListMessage(event.error) }) },
                      },
                    },
                    ready: {},
                  },
                },

                ops: {
                  initial: 'idle',
                  states: {
                    idle: {
                      on: {
                        'audio.upload.submit': [
                          { guard: 'isUploadIncomplete', actions: 'reportNameAndFileRequired' },
                          { target: 'uploading', actions: 'dismissAudioMessages' },
                        ],
                        'audio.delete': { guard: 'isKnownAudio', target: 'confirmingDelete', actions: 'pickTargetAudio' },
                        'audio.setDefault': { guard: 'isKnownAudio', target: 'settingDefault', actions: ['pickTargetAudio', 'dismissAudioMessages'] },
                        'audio.transcribe': { guard: 'isKnownAudio', target: 'transcribing', actions: ['pickTargetAudio', 'dismissAudioMessages'] },
                        'audio.transcribeAll': { target: 'startingBatch', actions: 'dismissAudioMessages' },
                      },
                    },
                    uploading: {
                      tags: ['uploading'],
                      invoke: {
                        id: 'uploadAudio',
                        src: 'uploadAudio',
                        input: ({ context }) => ({
                          agentId: context.agentId!,
                          name: context.upload.name.trim(),
                          file: context.upload.file!,
                          fileName: context.upload.fileName || 'audio',
                        }),
                        onDone: {
                          target: 'idle',
                          actions: [
                            assign(({ event }) => ({
                              lastTranscript: event.output.transcript ? { name: event.output.name, text: event.output.transcript } : null,
                              audioNotice: event.output.transcription_error ?? null,
                            })),
                            'clearUpload',
                            'refetchAudio',
                          ],
                        },
                        onError: { target: 'idle', actions: assign({ audioError: ({ event }) => audioUploadMessage(event.error) }) },
                      },
                    },
                    confirmingDelete: {
                      on: {
                        'audio.delete.confirm': 'deleting',
                        'audio.delete.cancel': { target: 'idle', actions: 'forgetTargetAudio' },
                      },
                    },
                    deleting: {
                      tags: ['audioBusy'],
                      invoke: {
                        id: 'deleteAudio',
                        src: 'deleteAudio',
                        input: ({ context }) => ({ audioId: context.targetAudio!.id }),
                        onDone: { target: 'idle', actions: ['forgetTargetAudio', 'refetchAudio'] },
                        onError: { target: 'idle', actions: [assign({ audioError: ({ event }) => audioDeleteMessage(event.error) }), 'forgetTargetAudio'] },
                      },
                    },
                    settingDefault: {
                      tags: ['audioBusy'],
                      invoke: {
                        id: 'setDefaultAudio',
                        src: 'setDefaultAudio',
                        input: ({ context }) => ({ audioId: context.targetAudio!.id }),
                        onDone: { target: 'idle', actions: ['forgetTargetAudio', 'refetchAudio'] },
                        onError: {
                          target: 'idle',
                          actions: [assign({ audioError: ({ event }) => audioSetDefaultMessage(event.error) }), 'forgetTargetAudio'],
                        },
                      },
                    },
                    transcribing: {
                      tags: ['audioBusy'],
                      invoke: {
                        id: 'transcribeAudio',
                        src: 'transcribeAudio',
                        input: ({ context }) => ({ audioId: context.targetAudio!.id }),
                        onDone: [
                          {
                            guard: 'wasTranscribed',
                            target: 'idle',
                            actions: [
                              assign(({ context, event }) => ({
                                lastTranscript: { name: context.targetAudio!.name, text: event.output.transcript ?? '' },
                              })),
                              'forgetTargetAudio',
                              'refetchAudio',
                            ],
                          },
                          {
                            target: 'idle',
                            actions: [
                              assign({ audioError: ({ event }) => AUDIO_MESSAGES.transcriptionFailed(event.output.message ?? 'unknown reason') }),
                              'forgetTargetAudio',
                            ],
                          },
                        ],
                        onError: { target: 'idle', actions: [assign({ audioError: ({ event }) => transcribeMessage(event.error) }), 'forgetTargetAudio'] },
                      },
                    },
                    startingBatch: {
                      tags: ['audioBusy'],
                      invoke: {
                        id: 'batchTranscribe',
                        src: 'batchTranscribe',
                        input: ({ context }) => ({ agentId: context.agentId! }),
                        onDone: [
                          {
                            guard: 'hasSomethingToTranscribe',
                            target: 'idle',
                            actions: [
                              assign({ audioNotice: ({ event }) => AUDIO_MESSAGES.batchStarted(event.output.count) }),
                              raise({ type: 'audio.batch.started' }),
                            ],
                          },
                          { target: 'idle', actions: assign({ audioNotice: AUDIO_MESSAGES.nothingToTranscribe }) },
                        ],
                        onError: { target: 'idle', actions: assign({ audioError: ({ event }) => batchTranscribeMessage(event.error) }) },
                      },
                    },
                  },
                },

                // After a batch starts, the list is fetched again at 3 s, 6 s and 10 s (part 1 §4).
                refetch: {
                  initial: 'off',
                  on: { 'audio.batch.started': '.first' },
                  states: {
                    off: {},
                    first: { after: { refetchFirst: { target: 'second', actions: 'refetchAudio' } } },
                    second: { after: { refetchSecond: { target: 'third', actions: 'refetchAudio' } } },
                    third: { after: { refetchThird: { target: 'off', actions: 'refetchAudio' } } },
                  },
                },
              },
            },
          },
        },
      },
    },
    closed: { type: 'final' },
  },
});

export type EditorActorRef = ActorRefFrom<typeof editorMachine>;
export type EditorSnapshot = SnapshotFrom<typeof editorMachine>;
