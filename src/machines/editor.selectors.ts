// What the editor drawer shows, derived from its snapshot (never stored in context).
import { AGENT_MESSAGES } from '../schemas/messages';
import type { ModelOption } from '../schemas/system';
import type { EditorSnapshot } from './editor.machine';
import { missingFields } from '../model/editorFields';
import type { ReferenceAudioActorRef } from './referenceAudio.machine';

export const selectMode = (s: EditorSnapshot) => s.context.mode;
export const selectFields = (s: EditorSnapshot) => s.context.fields;
export const selectIsLoading = (s: EditorSnapshot) => s.hasTag('loading');
export const selectIsSaving = (s: EditorSnapshot) => s.hasTag('saving');
export const selectIsDeleting = (s: EditorSnapshot) => s.hasTag('deleting');
export const selectWasCreated = (s: EditorSnapshot) => s.hasTag('created');
/** An update just succeeded (for SAVED_NOTICE_MS): the drawer says 'Saved'. */
export const selectWasJustSaved = (s: EditorSnapshot) => s.hasTag('saved');
export const selectCanSubmit = (s: EditorSnapshot) => s.can({ type: 'editor.submit' });
/** Why Create/Update is disabled while the form is being filled in, as one sentence; null when nothing is missing. */
export function selectSubmitBlocker(s: EditorSnapshot): string | null {
  const missing = missingFields(s.context.fields);
  if (missing.length === 0) return null;
  const list =
    missing.length === 1 ? missing[0] : `${missing.slice(0, -1).join(', ')} and ${missing[missing.length - 1]}`;
  return `Add ${list} to ${s.context.mode === 'create' ? 'create' : 'save'} the agent.`;
}
export const selectLoadError = (s: EditorSnapshot) => s.context.loadError;
export const selectFormError = (s: EditorSnapshot) => s.context.formError;
export const selectIsConfirmingDelete = (s: EditorSnapshot) =>
  s.matches({ open: { form: { deletion: 'confirming' } } });
export const selectModelsLoading = (s: EditorSnapshot) => s.matches({ open: { models: 'loading' } });

/** The options of the model select: the list, plus the agent's own model when the list does not have it. */
export function selectModelOptions(s: EditorSnapshot): ModelOption[] {
  const { models, fields } = s.context;
  if (!fields.model || models.some((m) => m.value === fields.model)) return models;
  return [...models, { value: fields.model, label: fields.model, offline: false }];
}

/** The options in the order they come, gathered by connection (the picker's optgroups). */
export function groupModelOptions(
  options: ModelOption[],
): Array<{ group: string; unreachable: boolean; options: ModelOption[] }> {
  const groups: Array<{ group: string; unreachable: boolean; options: ModelOption[] }> = [];
  for (const o of options) {
    const name = o.group ?? '';
    let g = groups.find((x) => x.group === name);
    if (!g) groups.push((g = { group: name, unreachable: true, options: [] }));
    g.options.push(o);
    if (!o.unreachable) g.unreachable = false;
  }
  return groups;
}

/** Title shown in the drawer; an agent that could not be fetched reads 'Agent' + the tail of its id. */
export function selectAgentHeading(s: EditorSnapshot): { name: string; role: string } {
  const { agent, agentId, mode, loadError } = s.context;
  if (mode === 'create') return { name: 'Create Agent', role: '' };
  if (loadError && agentId) return { name: AGENT_MESSAGES.fallbackName(agentId), role: AGENT_MESSAGES.fallbackRole };
  return { name: agent?.name ?? (agentId ? AGENT_MESSAGES.fallbackName(agentId) : ''), role: agent?.role ?? '' };
}

export const selectDeleteConfirmation = (s: EditorSnapshot) =>
  AGENT_MESSAGES.deleteConfirm(
    s.context.agent?.name ?? s.context.fields.name,
    selectReferenceAudioRef(s)?.getSnapshot().context.audio.length ?? 0,
  );

// ── Reference audio: its own chart; views select from it (referenceAudio.selectors.ts) ──
export const selectReferenceAudioRef = (s: EditorSnapshot) =>
  s.children.referenceAudio as ReferenceAudioActorRef | undefined;

/** Capability names read with spaces (docs/product.md#workspace-screens). */
export const capabilityLabel = (c: string) => c.replace(/_/g, ' ');
