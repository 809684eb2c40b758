import { z } from 'zod';
import { idText, text } from './common';
import { discussionFormat } from './format';

// Saved panels (docs/integrations.md): a named selection of agents with its format and settings, started from the
// app or asked from outside (the MCP server's `ask_panel`, the OpenAI-compatible `panel:<name>` models). Names fixed
// by the issue 'A panel any client can call': POST/GET /panels, GET/PATCH/DELETE /panels/{id}.

export const PANEL_NAME_MAX = 80;
/** The most agents one panel seats (a discussion's own cap on agents applies when it runs). */
export const PANEL_AGENTS_MAX = 12;
/** A panel's settings as JSON: the discussion's own settings, checked when it runs; bounded here. */
export const PANEL_SETTINGS_MAX_BYTES = 8 * 1024;

/** A panel's name is how outside clients call it (`panel:<name>`): one line, no slashes. */
export const panelName = text()
  .trim()
  .min(1, 'Name is required')
  .max(PANEL_NAME_MAX, `Name is at most ${PANEL_NAME_MAX} characters`)
  .regex(/^[^\0\r\n/\\]+$/, 'A panel name is one line without slashes');

export const panelSettings = z
  .record(z.string().max(100), z.unknown())
  .refine(
    (v) => new TextEncoder().encode(JSON.stringify(v)).length <= PANEL_SETTINGS_MAX_BYTES,
    `Settings are at most ${PANEL_SETTINGS_MAX_BYTES / 1024} KB`,
  );

export const panelCreate = z.object({
  name: panelName,
  agent_ids: z
    .array(idText())
    .min(2, 'A panel seats at least two agents')
    .max(PANEL_AGENTS_MAX, `A panel seats at most ${PANEL_AGENTS_MAX} agents`)
    .refine((ids) => new Set(ids).size === ids.length, 'An agent sits on a panel once'),
  format: discussionFormat.nullish(),
  settings: panelSettings.nullish(),
});
export type PanelCreate = z.infer<typeof panelCreate>;
export const panelUpdate = panelCreate.partial();
export type PanelUpdate = z.infer<typeof panelUpdate>;

export const panel = z.object({
  id: z.string(),
  name: z.string(),
  agent_ids: z.array(z.string()),
  format: discussionFormat.nullable(),
  settings: z.record(z.string(), z.unknown()).nullable(),
  created_at: z.string(),
  updated_at: z.string(),
});
export type Panel = z.infer<typeof panel>;
export const panelList = z.array(panel);
