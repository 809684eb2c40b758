// The Models dialog's connection form, one lifecycle of the Models chart: closed | editing (idle → testing → idle,
// idle → saving → closed), one connection being added or edited.
import { assign, raise } from 'xstate';
import {
  blankForm,
  editableConnection,
  errorText,
  formFrom,
  NO_FORM,
  saveBody,
  testBody,
  withPreset,
} from '../model/modelsForm';
import { modelsSetup } from './models.setup';

export const modelsFormRegion = modelsSetup.createStateConfig({
  initial: 'closed',
  states: {
    closed: {
      on: {
        'models.add': {
          target: 'editing',
          actions: assign({ form: ({ event }) => blankForm(event.kind ?? 'ollama'), test: null, formError: null }),
        },
        'models.edit': {
          guard: ({ context, event }) => editableConnection(context.connections, event.id) !== undefined,
          target: 'editing',
          actions: assign({
            form: ({ context, event }) => formFrom(editableConnection(context.connections, event.id)!),
            test: null,
            formError: null,
          }),
        },
      },
    },
    editing: {
      tags: 'formOpen',
      initial: 'idle',
      on: { 'models.form.cancel': { target: 'closed', actions: assign(NO_FORM) } },
      states: {
        idle: {
          on: {
            'models.form.kind': {
              guard: ({ context }) => context.form?.mode === 'create',
              actions: assign({ form: ({ event }) => blankForm(event.kind), test: null, formError: null }),
            },
            'models.form.preset': {
              actions: assign({
                form: ({ context, event }) => withPreset(context.form!, event.preset),
                test: null,
              }),
            },
            'models.form.field': {
              actions: assign({
                form: ({ context, event }) => ({ ...context.form!, [event.field]: event.value }),
                test: null,
                formError: null,
              }),
            },
            'models.form.test': { guard: 'isFormUsable', target: 'testing' },
            'models.form.save': { guard: 'isFormUsable', target: 'saving' },
          },
        },
        testing: {
          tags: 'testing',
          invoke: {
            src: 'testConnection',
            input: ({ context }) => testBody(context.form!),
            onDone: { target: 'idle', actions: assign({ test: ({ event }) => event.output, formError: null }) },
            onError: { target: 'idle', actions: assign({ formError: ({ event }) => errorText(event.error) }) },
          },
        },
        saving: {
          tags: 'saving',
          invoke: {
            src: 'saveConnection',
            input: ({ context }) => ({ id: context.form!.id, body: saveBody(context.form!) }),
            onDone: {
              target: '#models.form.closed',
              actions: [assign(NO_FORM), raise({ type: 'models.refresh' })],
            },
            // The form keeps every field: nothing typed is lost to a refused save.
            onError: { target: 'idle', actions: assign({ formError: ({ event }) => errorText(event.error) }) },
          },
        },
      },
    },
  },
});
