// One section of the Models dialog that lists a surface's connections (docs/architecture.md 'One connections
// module'): the server's own (read-only) and the user's, and one form to add or edit a connection with Test and
// Save, and Delete with a question. Speech and tool servers are two uses of it; each names its events with its own
// prefix ('speech.add', 'tools.add') and brings its form (a pure module: blank, from a connection, usable, the Test
// and Save bodies). Regions:
//   list   — loading → ready | failed (read again after a save or a delete, and on '<prefix>.refresh')
//   form   — closed | editing (idle → testing → idle, idle → saving → closed)
//   delete — idle | confirming → deleting
import {
  assign,
  fromPromise,
  raise,
  setup,
  type ActorRefFrom,
  type AnyEventObject,
  type AnyStateMachine,
} from 'xstate';
import { errorText } from '../../model/modelsForm';
import { notProvided } from './actorKit';

/** What the section knows of any connection. */
export interface SectionConnection {
  id: string;
  name: string;
  read_only: boolean;
}

/** What the section knows of any form. */
export interface SectionForm {
  mode: 'create' | 'edit';
  id: string | null;
}

/** A surface's form, as pure functions (src/model/speechForm.ts, src/model/toolForm.ts). */
export interface SectionSpec<
  P extends string,
  C extends SectionConnection,
  F extends SectionForm,
  K extends string,
  TB,
  TR,
  SB,
> {
  id: string;
  prefix: P;
  /** The kind a new connection's form starts with. */
  firstKind: K;
  blank: (kind: K) => F;
  from: (c: C) => F;
  usable: (f: F | null) => boolean;
  testBody: (f: F) => TB;
  saveBody: (f: F) => SB;
  /** Bodies types only (never read): the Test answer's type. */
  testResult?: TR;
}

export interface SectionContext<C, F, TR> {
  connections: C[];
  listError: string | null;
  form: F | null;
  test: TR | null;
  formError: string | null;
  pendingDelete: { id: string; name: string } | null;
  actionError: string | null;
}

export type SectionEvent<P extends string, K extends string, Field extends string> =
  | { type: `${P}.refresh` }
  | { type: `${P}.add` }
  | { type: `${P}.edit`; id: string }
  | { type: `${P}.form.kind`; kind: K }
  | { type: `${P}.form.field`; field: Field; value: string }
  | { type: `${P}.form.test` }
  | { type: `${P}.form.save` }
  | { type: `${P}.form.cancel` }
  | { type: `${P}.delete`; id: string }
  | { type: `${P}.delete.confirm` }
  | { type: `${P}.delete.cancel` }
  | { type: `${P}.error.dismiss` };

const NO_FORM = { form: null, test: null, formError: null } as const;

export function connectionSectionMachine<
  P extends string,
  C extends SectionConnection,
  F extends SectionForm,
  K extends string,
  Field extends string,
  TB,
  TR,
  SB,
>(spec: SectionSpec<P, C, F, K, TB, TR, SB>) {
  const p = spec.prefix;
  const editable = (list: C[], id: string) => list.find((c) => c.id === id && !c.read_only);
  // The events carry the section's prefix; the chart reads them as this shape.
  type E = AnyEventObject & { id?: string; kind?: K; field?: Field; value?: string };
  type Ctx = SectionContext<C, F, TR>;
  // Typed per surface at the edges (context, events, the actors' inputs and outputs); inside, the prefixed event
  // names are computed keys, which the chart's types cannot follow, so it reads events as `E`.
  return setup({
    types: { context: {} as Ctx, events: {} as E },
    actors: {
      // Their real inputs and outputs: loadConnections () → C[], testConnection TB → TR, saveConnection
      // { id, body: SB } → C, deleteConnection { id } → unknown (the surface's services provide them typed).
      loadConnections: fromPromise<unknown, unknown>(notProvided(spec.id, 'loadConnections')),
      testConnection: fromPromise<unknown, unknown>(notProvided(spec.id, 'testConnection')),
      saveConnection: fromPromise<unknown, unknown>(notProvided(spec.id, 'saveConnection')),
      deleteConnection: fromPromise<unknown, unknown>(notProvided(spec.id, 'deleteConnection')),
    },
    guards: {
      isFormUsable: ({ context }) => spec.usable(context.form),
      isCreateForm: ({ context }) => context.form?.mode === 'create',
      isEditable: ({ context, event }) => editable(context.connections, (event as E).id ?? '') !== undefined,
    },
  }).createMachine({
    id: spec.id,
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
    on: { [`${p}.error.dismiss`]: { actions: assign({ actionError: null }) } },
    states: {
      list: {
        initial: 'loading',
        on: { [`${p}.refresh`]: '.loading' },
        states: {
          loading: {
            tags: 'listLoading',
            invoke: {
              src: 'loadConnections',
              onDone: {
                target: 'ready',
                actions: assign({ connections: ({ event }) => event.output as C[], listError: null }),
              },
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
              [`${p}.add`]: {
                target: 'editing',
                actions: assign({ form: () => spec.blank(spec.firstKind), test: null, formError: null }),
              },
              [`${p}.edit`]: {
                guard: 'isEditable',
                target: 'editing',
                actions: assign({
                  form: ({ context, event }) => spec.from(editable(context.connections, (event as E).id!)!),
                  test: null,
                  formError: null,
                }),
              },
            },
          },
          editing: {
            tags: 'formOpen',
            initial: 'idle',
            on: { [`${p}.form.cancel`]: { target: 'closed', actions: assign(NO_FORM) } },
            states: {
              idle: {
                on: {
                  [`${p}.form.kind`]: {
                    guard: 'isCreateForm',
                    actions: assign({
                      form: ({ event }) => spec.blank((event as E).kind!),
                      test: null,
                      formError: null,
                    }),
                  },
                  [`${p}.form.field`]: {
                    actions: assign({
                      form: ({ context, event }) => ({ ...context.form!, [(event as E).field!]: (event as E).value }),
                      test: null,
                      formError: null,
                    }),
                  },
                  [`${p}.form.test`]: { guard: 'isFormUsable', target: 'testing' },
                  [`${p}.form.save`]: { guard: 'isFormUsable', target: 'saving' },
                },
              },
              testing: {
                tags: 'testing',
                invoke: {
                  src: 'testConnection',
                  input: ({ context }: { context: Ctx }) => spec.testBody(context.form!),
                  onDone: {
                    target: 'idle',
                    actions: assign({ test: ({ event }) => event.output as TR, formError: null }),
                  },
                  onError: { target: 'idle', actions: assign({ formError: ({ event }) => errorText(event.error) }) },
                },
              },
              saving: {
                tags: 'saving',
                invoke: {
                  src: 'saveConnection',
                  input: ({ context }: { context: Ctx }) => ({
                    id: context.form!.id,
                    body: spec.saveBody(context.form!),
                  }),
                  onDone: {
                    target: `#${spec.id}.form.closed`,
                    actions: [assign(NO_FORM), raise({ type: `${p}.refresh` })],
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
              [`${p}.delete`]: {
                guard: 'isEditable',
                target: 'confirming',
                actions: assign({
                  pendingDelete: ({ context, event }) => ({
                    id: (event as E).id!,
                    name: editable(context.connections, (event as E).id!)!.name,
                  }),
                }),
              },
            },
          },
          confirming: {
            tags: 'confirmingDelete',
            on: {
              [`${p}.delete.cancel`]: { target: 'idle', actions: assign({ pendingDelete: null }) },
              [`${p}.delete.confirm`]: 'deleting',
            },
          },
          deleting: {
            tags: 'deleting',
            invoke: {
              src: 'deleteConnection',
              input: ({ context }: { context: Ctx }) => ({ id: context.pendingDelete!.id }),
              onDone: {
                target: 'idle',
                actions: [assign({ pendingDelete: null }), raise({ type: `${p}.refresh` })],
              },
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
}

/** A section's actor as its view holds it: it sends only the section's own events. */
export type SectionActorRef<M extends AnyStateMachine, Ev> = Omit<ActorRefFrom<M>, 'send'> & { send(event: Ev): void };

/** A surface's I/O for its section, typed; the chart's actors take it as they are declared (kit: untyped inside). */
export interface SectionIo<C, TB, TR, SB> {
  load: () => Promise<C[]>;
  test: (body: TB) => Promise<TR>;
  save: (input: { id: string | null; body: SB }) => Promise<C>;
  remove: (input: { id: string }) => Promise<unknown>;
}

export function sectionActors<C, TB, TR, SB>(io: SectionIo<C, TB, TR, SB>) {
  return {
    loadConnections: fromPromise<unknown, unknown>(() => io.load()),
    testConnection: fromPromise<unknown, unknown>(({ input }) => io.test(input as TB)),
    saveConnection: fromPromise<unknown, unknown>(({ input }) => io.save(input as { id: string | null; body: SB })),
    deleteConnection: fromPromise<unknown, unknown>(({ input }) => io.remove(input as { id: string })),
  };
}
