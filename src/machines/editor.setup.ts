// The editor chart's vocabulary (the chart itself: editor.machine.ts): the loads and saves it invokes, the children
// it spawns for the open drawer (reference voices, the agent's voice, the deletion), its two delays, the guards it
// asks and the actions that change the form. What a form becomes (bodies, checks, preselection) is
// model/editorFields.ts; when each runs is the chart's business.
import { assertEvent, assign, fromPromise, sendParent, setup } from 'xstate';
import type { Agent, AgentCreateRequest, AgentUpdate } from '../schemas/agents';
import { EDITOR_CLOSE_AFTER_CREATE_MS } from '../schemas/constants';
import type { ModelOption } from '../schemas/system';
import { agentDeletionMachine } from './agentDeletion.machine';
import { referenceAudioMachine } from './referenceAudio.machine';
import { agentVoiceMachine } from './agentVoice.machine';
import { notProvided } from './kit/actorKit';
import type { EditorInput, EditorParentEvent } from '../model/workspaceTypes';
import { knowledgeOf, toggled } from '../model/agentKnowledge';
import { toggledTool, toolsOf, type ToolCatalogServer } from '../model/agentTools';
import {
  fallbackModels,
  fieldsFromAgent,
  isComplete,
  withPreselectedModel,
  type EditorContext,
  type EditorEvent,
} from '../model/editorFields';

/** How long the drawer says 'Saved' after an update (the drawer stays open, so the user needs to be told). */
export const SAVED_NOTICE_MS = 2500;

export const editorSetup = setup({
  types: {
    context: {} as EditorContext,
    events: {} as EditorEvent,
    input: {} as EditorInput,
  },
  actors: {
    loadModels: fromPromise<ModelOption[]>(notProvided('editor', 'loadModels')),
    loadToolCatalog: fromPromise<ToolCatalogServer[]>(notProvided('editor', 'loadToolCatalog')),
    loadAgent: fromPromise<Agent, { agentId: string }>(notProvided('editor', 'loadAgent')),
    createAgent: fromPromise<Agent, AgentCreateRequest>(notProvided('editor', 'createAgent')),
    updateAgent: fromPromise<Agent, { agentId: string; body: AgentUpdate }>(notProvided('editor', 'updateAgent')),
    agentDeletion: agentDeletionMachine,
    referenceAudio: referenceAudioMachine,
    agentVoice: agentVoiceMachine,
  },
  delays: {
    closeAfterCreate: EDITOR_CLOSE_AFTER_CREATE_MS,
    savedNotice: SAVED_NOTICE_MS,
  },
  guards: {
    isEditMode: ({ context }) => context.mode === 'edit',
    isCreateMode: ({ context }) => context.mode === 'create',
    isFormComplete: ({ context }) => isComplete(context.fields),
  },
  actions: {
    setField: assign({
      fields: ({ context, event }) => {
        assertEvent(event, 'editor.field');
        return { ...context.fields, [event.field]: event.value };
      },
    }),
    clearFormError: assign({ formError: null }),
    /** The agent as the server has it now: the form, its sources and its tools read from it again. */
    takeAgent: assign((_, params: { agent: Agent }) => ({
      agent: params.agent,
      fields: fieldsFromAgent(params.agent),
      sourceIds: knowledgeOf(params.agent),
      tools: toolsOf(params.agent),
    })),
    /** The model list: one that came back empty or failed is replaced by the fallback list. */
    takeModels: assign(({ context }, params: { models: ModelOption[] }) =>
      params.models.length > 0
        ? { models: params.models, modelsFromFallback: false, fields: withPreselectedModel(context, params.models) }
        : { models: fallbackModels(), modelsFromFallback: true },
    ),
    toggleKnowledge: assign({
      sourceIds: ({ context, event }) => {
        assertEvent(event, ['editor.knowledge.toggle', 'sources.added']);
        return event.type === 'sources.added'
          ? toggled(context.sourceIds, event.source.id, true)
          : toggled(context.sourceIds, event.id, event.on);
      },
    }),
    toggleTool: assign({
      tools: ({ context, event }) => {
        assertEvent(event, 'editor.tools.toggle');
        return { ...context.tools, tools: toggledTool(context.tools.tools, event.id, event.on) };
      },
    }),
    notifySaved: sendParent(
      (_, params: { mode: 'create' | 'edit'; agent: Agent }) =>
        ({ type: 'editor.saved', ...params }) satisfies EditorParentEvent,
    ),
    notifyDeleted: sendParent(
      (_, params: { agentId: string }) => ({ type: 'editor.deleted', ...params }) satisfies EditorParentEvent,
    ),
  },
});
