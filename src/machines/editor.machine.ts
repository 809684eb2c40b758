// The agent editor drawer (docs/product.md#workspace-screens 'Agent editor', #workspace-states 'Editor',
// #workspace-validation): create or edit one agent. Two regions run
// side by side while the drawer is open:
//   models  — the model list from /models/ (fallback list when it fails)
//   form    — load (edit), edit fields, save, delete; a create closes the drawer 0.5 s after it succeeds, an
//             update stays open and says 'Saved' for SAVED_NOTICE_MS
//   toolCatalog — GET /tools for the 'Tools' section (loading → ready | failed, retried on 'editor.tools.retry');
//             the switches and 'Ask me before each call' are saved with the agent (only what changed)
// The reference voices are their own chart (referenceAudio.machine.ts), spawned for the open drawer; the
// editor passes it every 'audio.*' event the drawer sends. The agent's voice (agentVoice.machine.ts) likewise
// hears every 'voice.*' event, and 'voice.save' when the agent is saved. Deleting the agent is agentDeletion.machine.ts, the
// same chart the canvas's context menu uses, invoked here with the audio count the drawer already shows.
// The parent (workspace) hears 'editor.saved' / 'editor.deleted' and sees the editor finish when it closes.
import { assign, enqueueActions, forwardTo, sendTo, spawnChild, type ActorRefFrom, type SnapshotFrom } from 'xstate';
import { agentLoadMessage, agentSaveMessage } from '../model/agentFailures';
import type { ReferenceAudioActorRef } from './referenceAudio.machine';
import { systemActor } from './kit/systemRegistry';
import { knowledgeBody } from '../model/agentKnowledge';
import type { EditorInput, EditorParentEvent } from '../model/workspaceTypes';
import { toolsBody } from '../model/agentTools';
import { errorText } from '../model/modelsForm';
import { createRequest, editorContextOf, updateBody } from '../model/editorFields';
import { editorSetup } from './editor.setup';

export { SAVED_NOTICE_MS } from './editor.setup';
export type { EditorInput, EditorParentEvent };
export type { EditorField, EditorFields, Personality, EditorContext, EditorEvent } from '../model/editorFields';
export {
  fieldsFromAgent,
  isPersonality,
  createBody,
  isColorValid,
  createRequest,
  updateBody,
  isComplete,
  withPreselectedModel,
} from '../model/editorFields';

export const editorMachine = editorSetup.createMachine({
  id: 'editor',
  context: ({ input }) => editorContextOf(input),
  initial: 'open',
  states: {
    open: {
      type: 'parallel',
      entry: [
        spawnChild('referenceAudio', { id: 'referenceAudio', input: ({ context }) => ({ agentId: context.agentId }) }),
        spawnChild('agentVoice', { id: 'agentVoice', input: ({ context }) => ({ agentId: context.agentId }) }),
      ],
      on: {
        'editor.close': '#editor.closed',
        'audio.*': { actions: forwardTo('referenceAudio') },
        'voice.*': { actions: forwardTo('agentVoice') },
        // Knowledge: the person's sources chart reads the files and tells this chart each one it added.
        'editor.knowledge.toggle': { actions: 'toggleKnowledge' },
        'editor.knowledge.add': {
          actions: enqueueActions(({ event, self, system, enqueue }) => {
            const sources = systemActor(system, 'sources');
            if (sources) enqueue.sendTo(sources, { type: 'sources.add.files', files: event.files, replyTo: self });
          }),
        },
        'sources.added': { actions: 'toggleKnowledge' },
        'editor.tools.toggle': { actions: 'toggleTool' },
        'editor.tools.ask': {
          actions: assign({ tools: ({ context, event }) => ({ ...context.tools, askBeforeTools: event.on }) }),
        },
      },
      states: {
        // The 'Tools' section's list (GET /tools): every tool of every server the person may give this agent.
        toolCatalog: {
          initial: 'loading',
          states: {
            loading: {
              tags: ['toolsLoading'],
              invoke: {
                src: 'loadToolCatalog',
                onDone: {
                  target: 'ready',
                  actions: assign({ toolCatalog: ({ event }) => event.output, toolCatalogError: null }),
                },
                onError: {
                  target: 'failed',
                  actions: assign({ toolCatalogError: ({ event }) => errorText(event.error) }),
                },
              },
            },
            ready: {},
            failed: { on: { 'editor.tools.retry': 'loading' } },
          },
        },
        models: {
          initial: 'loading',
          states: {
            loading: {
              invoke: {
                id: 'loadModels',
                src: 'loadModels',
                onDone: {
                  target: 'ready',
                  actions: { type: 'takeModels', params: ({ event }) => ({ models: event.output }) },
                },
                onError: { target: 'ready', actions: { type: 'takeModels', params: { models: [] } } },
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
                  actions: [
                    { type: 'takeAgent', params: ({ event }) => ({ agent: event.output }) },
                    assign({ loadError: null }),
                  ],
                },
                onError: {
                  target: 'loadFailed',
                  actions: assign({ loadError: ({ event }) => agentLoadMessage(event.error) }),
                },
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
                'editor.delete': { guard: 'isEditMode', target: 'deletion', actions: 'clearFormError' },
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
                    input: ({ context }) => ({
                      ...createRequest(context.fields, context.takenColors),
                      ...(context.position ?? {}),
                    }),
                    onDone: {
                      target: '#editor.open.form.created',
                      actions: [
                        assign(({ event }) => ({ agent: event.output, agentId: event.output.id })),
                        {
                          type: 'notifySaved',
                          params: ({ event }) => ({ mode: 'create' as const, agent: event.output }),
                        },
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
                    input: ({ context }) => ({
                      agentId: context.agentId!,
                      body: {
                        ...updateBody(context.fields),
                        ...knowledgeBody(context.agent, context.sourceIds),
                        ...toolsBody(context.agent, context.tools),
                      },
                    }),
                    onDone: {
                      target: '#editor.open.form.editing.saved',
                      actions: [
                        { type: 'takeAgent', params: ({ event }) => ({ agent: event.output }) },
                        // The voice chosen below is saved with the agent (a clone is registered then).
                        sendTo('agentVoice', { type: 'voice.save' }),
                        {
                          type: 'notifySaved',
                          params: ({ event }) => ({ mode: 'edit' as const, agent: event.output }),
                        },
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
            // The agentDeletion child waits for the answer; leaving before it is sent (cancel, close) stops it.
            deletion: {
              invoke: {
                id: 'agentDeletion',
                src: 'agentDeletion',
                // The drawer's confirmation names the count it lists, so the child does not count again.
                input: ({ context, self }) => ({
                  agentId: context.agentId!,
                  name: context.agent?.name ?? context.fields.name,
                  audioCount:
                    (self.getSnapshot()?.children?.referenceAudio as ReferenceAudioActorRef | undefined)?.getSnapshot()
                      .context.audio.length ?? 0,
                  parent: self,
                }),
              },
              on: {
                'agent.deleted': {
                  target: '#editor.closed',
                  actions: { type: 'notifyDeleted', params: ({ event }) => ({ agentId: event.agentId }) },
                },
                'banner.show': { target: 'editing', actions: assign({ formError: ({ event }) => event.text }) },
              },
              initial: 'confirming',
              states: {
                confirming: {
                  on: {
                    'editor.delete.confirm': {
                      target: 'deleting',
                      actions: sendTo('agentDeletion', { type: 'agent.delete.confirm' }),
                    },
                    'editor.delete.cancel': '#editor.open.form.editing',
                  },
                },
                deleting: { tags: ['deleting'] },
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

declare module './kit/systemRegistry' {
  interface SystemActors {
    editor: ActorRefFrom<typeof editorMachine>;
  }
}
