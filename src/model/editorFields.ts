// The editor's fields and what they become: a form from an agent, the create and update bodies, the checks that
// enable Save, and the model list's preselection and fallback. Pure; the chart is src/machines/editor.machine.ts.
import { autoColor } from './agentIdentity';
import type { Agent, AgentCreate, AgentCreateRequest, AgentUpdate, Position } from '../schemas/agents';
import { AGENT_COLOR_PATTERN, AGENT_PERSONALITIES, FALLBACK_MODELS } from '../schemas/constants';
import type { ModelOption } from '../schemas/system';
import type { BannerShowEvent } from './bannerRequest';
import type { ReferenceAudioEvent } from './referenceAudio';
import type { AgentVoiceEvent } from './agentVoice';
import type { AgentDeletedEvent, EditorInput } from './workspaceTypes';
import { knowledgeOf, type KnowledgeEvent } from './agentKnowledge';
import { toolsOf, type AgentTools, type ToolCatalogServer } from './agentTools';

/** color is '#rrggbb' or '' (derived from the id); avatar is an emoji/initials or '' (the name's initials). */
export type EditorField = 'name' | 'role' | 'prompt' | 'model' | 'personality' | 'color' | 'avatar';
export type EditorFields = Record<EditorField, string>;
export type Personality = (typeof AGENT_PERSONALITIES)[number];

export interface EditorContext {
  mode: 'create' | 'edit';
  agentId: string | null;
  /** Where a created agent goes (create mode; null lets the server choose). */
  position: Position | null;
  /** The colours the workspace's agents wear (create mode): the automatic colour avoids them. */
  takenColors: string[];
  agent: Agent | null;
  fields: EditorFields;
  models: ModelOption[];
  modelsFromFallback: boolean;
  loadError: string | null;
  formError: string | null;
  /** The agent's own sources as ticked in 'Knowledge' (src/model/agentKnowledge.ts); saved with Update Agent. */
  sourceIds: string[];
  /** The tools switched on and 'Ask me before each call' (agentTools.ts). */
  tools: AgentTools;
  /** GET /tools: every tool by server; null until it answers. */
  toolCatalog: readonly ToolCatalogServer[] | null;
  toolCatalogError: string | null;
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
  /** The 'Tools' section: a tool's switch, 'Ask me before each call', and reading the catalog again. */
  | { type: 'editor.tools.toggle'; id: string; on: boolean }
  | { type: 'editor.tools.ask'; on: boolean }
  | { type: 'editor.tools.retry' }
  /** Passed on to the referenceAudio child. */
  | ReferenceAudioEvent
  /** Passed on to the agentVoice child. */
  | AgentVoiceEvent
  /** What the agentDeletion child tells the editor. */
  | AgentDeletedEvent
  | BannerShowEvent
  | KnowledgeEvent;

export const emptyFields: EditorFields = {
  name: '',
  role: '',
  prompt: '',
  model: '',
  personality: '',
  color: '',
  avatar: '',
};

/** The drawer as it opens: an edit starts from the agent the canvas has (loaded again at once), a create empty. */
export function editorContextOf(input: EditorInput): EditorContext {
  const agent = input.mode === 'edit' ? (input.agent ?? null) : null;
  return {
    mode: input.mode,
    agentId: input.mode === 'edit' ? input.agentId : null,
    agent,
    position: input.mode === 'create' ? (input.position ?? null) : null,
    takenColors: input.mode === 'create' ? (input.takenColors ?? []) : [],
    fields: agent ? fieldsFromAgent(agent) : emptyFields,
    models: [],
    modelsFromFallback: false,
    loadError: null,
    formError: null,
    sourceIds: knowledgeOf(agent),
    tools: toolsOf(agent),
    toolCatalog: null,
    toolCatalogError: null,
  };
}

export const fieldsFromAgent = (a: Agent): EditorFields => ({
  name: a.name ?? '',
  role: a.role ?? '',
  prompt: a.prompt ?? '',
  model: a.model ?? '',
  personality: a.personality ?? '',
  color: a.color ?? '',
  avatar: a.avatar ?? '',
});

export const isPersonality = (v: string): v is Personality => (AGENT_PERSONALITIES as readonly string[]).includes(v);

/** The body of a create: every field trimmed (docs/product.md#workspace-validation). */
export const createBody = (f: EditorFields): AgentCreate => ({
  name: f.name.trim(),
  role: f.role.trim(),
  prompt: f.prompt.trim(),
  model: f.model.trim(),
});

/** A colour the server accepts ('' means derived). */
export const isColorValid = (c: string) => c === '' || AGENT_COLOR_PATTERN.test(c);

/** The identity part of a body: an empty field clears back to the derived look (null). */
export const identity = (f: EditorFields) => ({
  color: f.color === '' ? null : f.color.toLowerCase(),
  avatar: f.avatar.trim() === '' ? null : f.avatar.trim(),
});

/**
 * The body of a create: the fields, the personality when chosen and the identity when set. 'Automatic' stores the
 * colour the editor previewed (autoColor: from the name, avoiding the colours `taken` by the workspace's agents; the
 * new agent's id is not known yet), so the node shows it.
 */
export const createRequest = (f: EditorFields, taken: readonly string[] = []): AgentCreateRequest => {
  const { color, avatar } = identity(f);
  return {
    ...createBody(f),
    ...(isPersonality(f.personality) ? { personality: f.personality } : {}),
    color: color ?? autoColor(f.name.trim(), taken),
    ...(avatar ? { avatar } : {}),
  };
};

/** The body of an update: the same fields plus personality when one is chosen, and the identity (null clears). */
export const updateBody = (f: EditorFields): AgentUpdate => ({
  ...createBody(f),
  ...(isPersonality(f.personality) ? { personality: f.personality } : {}),
  ...identity(f),
});

/** What a create or update still needs, in the form's order (empty when it can be sent). */
export function missingFields(f: EditorFields): string[] {
  const missing: string[] = [];
  if (!f.name.trim()) missing.push('a name');
  if (!f.role.trim()) missing.push('a role');
  if (!f.prompt.trim()) missing.push('a prompt');
  if (!f.model.trim()) missing.push('a model');
  if (!isColorValid(f.color)) missing.push('a colour as #rrggbb');
  return missing;
}

export const isComplete = (f: EditorFields) =>
  [f.name, f.role, f.prompt, f.model].every((v) => v.trim().length > 0) && isColorValid(f.color);

/**
 * A new agent starts with a model chosen: the first one a connection can reach, else the offline demo model. An
 * edit, or a model already picked, is left alone.
 */
export function withPreselectedModel(
  context: Pick<EditorContext, 'mode' | 'fields'>,
  models: ModelOption[],
): EditorFields {
  if (context.mode !== 'create' || context.fields.model) return context.fields;
  const pick = models.find((m) => !m.offline && !m.unreachable) ?? models.find((m) => m.offline);
  return pick ? { ...context.fields, model: pick.value } : context.fields;
}

export const fallbackModels = (): ModelOption[] => FALLBACK_MODELS.map((m) => ({ value: m, label: m, offline: false }));
