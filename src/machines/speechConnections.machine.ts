// The Models dialog's 'Speech' section (README 'Voices'): the server's own speech connections (read-only) and the
// user's, what each server can do, and one form to add or edit a connection with Test and Save. The Models chart
// runs it as a child while its dialog is open. Regions:
//   list   — loading → ready | failed (read again after a save or a delete, and on 'speech.refresh')
//   form   — closed | editing (idle → testing → idle, idle → saving → closed)
//   delete — idle | confirming → deleting
import { assign, fromPromise, raise, setup, type ActorRefFrom, type SnapshotFrom } from 'xstate';
import type {
  SpeechConnection,
  SpeechConnectionCreate,
  SpeechConnectionTestBody,
  SpeechConnectionTestResult,
  SpeechConnectionUpdate,
} from '../schemas/speechConnections';
import { notProvided } from './kit/actorKit';
import { errorText } from '../model/modelsForm';
import {
  blankSpeechForm,
  isSpeechFormUsable,
  speechFormFrom,
  speechSaveBody,
  speechTestBody,
  type SpeechForm,
  type SpeechFormField,
} from '../model/speechForm';

export type { SpeechForm, SpeechFormField } from '../model/speechForm';

export interface SpeechConnectionsContext {
  connections: SpeechConnection[];
  listError: string | null;
  form: SpeechForm | null;
  test: SpeechConnectionTestResult | null;
  formError: string | null;
  pendingDelete: { id: string; name: string } | null;
  actionError: string | null;
}

export type SpeechConnectionsEvent =
  | { type: 'speech.refresh' }
  | { type: 'speech.add' }
  | { type: 'speech.edit'; id: string }
  | { type: 'speech.form.kind'; kind: SpeechForm['kind'] }
  | { type: 'speech.form.field'; field: SpeechFormField; value: string }
  | { type: 'speech.form.test' }
  | { type: 'speech.form.save' }
  | { type: 'speech.form.cancel' }
  | { type: 'speech.delete'; id: string }
  | { type: 'speech.delete.confirm' }
  | { type: 'speech.delete.cancel' }
  | { type: 'speech.error.dismiss' };

const NO_FORM = { form: null, test: null, formError: null } as const;
const editable = (list: SpeechConnection[], id: string) => list.find((c) => c.id === id && !c.read_only);

export const speechConnectionsMachine = setup({
  types: { context: {} as SpeechConnectionsContext, events: {} as SpeechConnectionsEvent },
  actors: {
    loadSpeechConnections: fromPromise<SpeechConnection[]>(notProvided('speechConnections', 'loadSpeechConnections')),
    testSpeechConnection: fromPromise<SpeechConnectionTestResult, SpeechConnectionTestBody>(
      notProvided('speechConnections', 'testSpeechConnection'),
    ),
    saveSpeechConnection: fromPromise<
      SpeechConnection,
      { id: string | null; body: SpeechConnectionCreate | SpeechConnectionUpdate }
    >(notProvided('speechConnections', 'saveSpeechConnection')),
    deleteSpeechConnection: fromPromise<unknown, { id: string }>(
      notProvided('speechConnections', 'deleteSpeechConnection'),
    ),
  },
  guards: {
    isFormUsable: ({ context }) => isSpeechFormUsable(context.form),
  },
}).createMachine({
  id: 'speechConnections',
  type: 'parallel',
  context: {
    connections: [],
    listError: null,
    form: null,
    test: null,
    formError: null,
    pendingDelete: null,
    actionError: null,
  },
  on: { 'speech.error.dismiss': { actions: assign({ actionError: null }) } },
  states: {
    list: {
      initial: 'loading',
      on: { 'speech.refresh': '.loading' },
      states: {
        loading: {
          tags: 'listLoading',
          invoke: {
            src: 'loadSpeechConnections',
            onDone: { target: 'ready', actions: assign({ connections: ({ event }) => event.output, listError: null }) },
            onError: { target: 'failed', actions: assign({ listError: ({ event }) => errorText(event.error) }) },
          },
        },
        ready: {},
        failed: {},
      },
    },
    form: {
      initial: 'closed',
      states: {
        closed: {
          on: {
            'speech.add': {
              target: 'editing',
              actions: assign({ form: () => blankSpeechForm('chatterbox'), test: null, formError: null }),
            },
            'speech.edit': {
              guard: ({ context, event }) => editable(context.connections, event.id) !== undefined,
              target: 'editing',
              actions: assign({
                form: ({ context, event }) => speechFormFrom(editable(context.connections, event.id)!),
                test: null,
                formError: null,
              }),
            },
          },
        },
        editing: {
          tags: 'formOpen',
          initial: 'idle',
          on: { 'speech.form.cancel': { target: 'closed', actions: assign(NO_FORM) } },
          states: {
            idle: {
              on: {
                'speech.form.kind': {
                  guard: ({ context }) => context.form?.mode === 'create',
                  actions: assign({ form: ({ event }) => blankSpeechForm(event.kind), test: null, formError: null }),
                },
                'speech.form.field': {
                  actions: assign({
                    form: ({ context, event }) => ({ ...context.form!, [event.field]: event.value }),
                    test: null,
                    formError: null,
                  }),
                },
                'speech.form.test': { guard: 'isFormUsable', target: 'testing' },
                'speech.form.save': { guard: 'isFormUsable', target: 'saving' },
              },
            },
            testing: {
              tags: 'testing',
              invoke: {
                src: 'testSpeechConnection',
                input: ({ context }) => speechTestBody(context.form!),
                onDone: { target: 'idle', actions: assign({ test: ({ event }) => event.output, formError: null }) },
                onError: { target: 'idle', actions: assign({ formError: ({ event }) => errorText(event.error) }) },
              },
            },
            saving: {
              tags: 'saving',
              invoke: {
                src: 'saveSpeechConnection',
                input: ({ context }) => ({ id: context.form!.id, body: speechSaveBody(context.form!) }),
                onDone: {
                  target: '#speechConnections.form.closed',
                  actions: [assign(NO_FORM), raise({ type: 'speech.refresh' })],
                },
                // The form keeps every field: nothing typed is lost to a refused save.
                onError: { target: 'idle', actions: assign({ formError: ({ event }) => errorText(event.error) }) },
              },
            },
          },
        },
      },
    },
    delete: {
      initial: 'idle',
      states: {
        idle: {
          on: {
            'speech.delete': {
              guard: ({ context, event }) => editable(context.connections, event.id) !== undefined,
              target: 'confirming',
              actions: assign({
                pendingDelete: ({ context, event }) => ({
                  id: event.id,
                  name: editable(context.connections, event.id)!.name,
                }),
              }),
            },
          },
        },
        confirming: {
          tags: 'confirmingDelete',
          on: {
            'speech.delete.cancel': { target: 'idle', actions: assign({ pendingDelete: null }) },
            'speech.delete.confirm': 'deleting',
          },
        },
        deleting: {
          tags: 'deleting',
          invoke: {
            src: 'deleteSpeechConnection',
            input: ({ context }) => ({ id: context.pendingDelete!.id }),
            onDone: { target: 'idle', actions: [assign({ pendingDelete: null }), raise({ type: 'speech.refresh' })] },
            onError: {
              target: 'idle',
              actions: assign({ pendingDelete: null, actionError: ({ event }) => errorText(event.error) }),
            },
          },
        },
      },
    },
  },
});

export type SpeechConnectionsActorRef = ActorRefFrom<typeof speechConnectionsMachine>;
export type SpeechConnectionsSnapshot = SnapshotFrom<typeof speechConnectionsMachine>;
