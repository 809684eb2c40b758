// A saved panel (docs/integrations.md#saved-panels) seen from the app: what 'Save as panel' sends for the canvas's
// selection and the standard panel's chosen format and settings, and what 'Start discussion' puts back. Pure.
import type { Agent } from '../schemas/agents';
import type { DiscussionFormat } from '../schemas/format';
import { PANEL_MESSAGES } from '../schemas/messages';
import { PANEL_AGENTS_MAX, panelName, type Panel, type PanelCreate } from '../schemas/panels';
import {
  defaults,
  panelFormat,
  standardPanelSettings,
  type PanelFormat,
  type StandardPanelSettings,
} from '../schemas/settings';
import { displayName } from './agentDisplay';
import { formatOf } from './discussionFormat';

/** A panel without its name: the agents, the format and settings as chosen when 'Save as panel' was pressed. */
export type PanelDraft = Omit<PanelCreate, 'name'> & { agent_ids: string[] };

/** The settings a panel keeps: the standard panel's own, less the format (sent apart, as the first frame does). */
const SETTING_SECTIONS = ['communication', 'reasoning', 'research', 'basic'] as const;

export function panelDraftOf(agentIds: readonly string[], settings: StandardPanelSettings): PanelDraft {
  const ids = [...new Set(agentIds)];
  const kept: Record<string, unknown> = {};
  for (const key of SETTING_SECTIONS) kept[key] = settings[key];
  // The round table sends no format (it is today's discussion): stored as null, listed as 'Round table'.
  return { agent_ids: ids, format: formatOf(settings.format, ids) ?? null, settings: kept };
}

/** Why the selection cannot be saved as a panel, in words; null when it can. */
export function selectionProblem(agentIds: readonly string[]): string | null {
  const n = new Set(agentIds).size;
  if (n < 2) return PANEL_MESSAGES.selectTwo;
  if (n > PANEL_AGENTS_MAX) return PANEL_MESSAGES.tooMany(PANEL_AGENTS_MAX, n);
  return null;
}

/** The name's problem by the server's own rule (one line, ≤ 80, no slashes); null when it is fine. */
export function nameProblem(name: string): string | null {
  const r = panelName.safeParse(name);
  return r.success ? null : (r.error.issues[0]?.message ?? 'This name cannot be used');
}

/** A stored format as the Format setting holds it (roles not named fall back to the setting's defaults). */
export function settingFormatOf(format: DiscussionFormat | null): PanelFormat {
  return panelFormat.parse({
    kind: format?.kind,
    ...(format?.moderator ? { moderator: format.moderator } : {}),
    ...(format?.chair ? { chair: format.chair } : {}),
    ...(format?.judge ? { judge: format.judge } : {}),
  });
}

/**
 * The standard panel's settings for starting a saved panel: its format, and each of its settings sections that
 * still reads as valid (a panel saved through the API may hold anything); the rest stay as they are now.
 */
export function panelStartSettings(panel: Panel, current: StandardPanelSettings = defaults.standardPanel) {
  const stored = panel.settings ?? {};
  const next: StandardPanelSettings = { ...current, format: settingFormatOf(panel.format) };
  for (const key of SETTING_SECTIONS) {
    if (!(key in stored)) continue;
    const section = standardPanelSettings.shape[key].safeParse(stored[key]);
    if (section.success) Object.assign(next, { [key]: section.data });
  }
  return next;
}

/** The panel's agents by name, in its order; an agent deleted since is said so. */
export function panelAgentNames(panel: Pick<Panel, 'agent_ids'>, agents: readonly Agent[]): string[] {
  const byId = new Map(agents.map((a) => [a.id, a]));
  return panel.agent_ids.map((id) => {
    const a = byId.get(id);
    return a ? displayName(a) : 'a deleted agent';
  });
}

/** The agents of a panel that still exist on the canvas. */
export const presentAgentIds = (panel: Pick<Panel, 'agent_ids'>, agents: readonly Agent[]) =>
  panel.agent_ids.filter((id) => agents.some((a) => a.id === id));
