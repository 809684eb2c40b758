import { z } from 'zod';
import { OFFLINE_MODEL, OFFLINE_MODEL_LABEL } from './constants';

export const componentStatus = z.looseObject({
  status: z.enum(['ok', 'degraded', 'unavailable', 'disabled']),
  detail: z.string().optional(),
  provider: z.string().optional(),
});
export const health = z.looseObject({
  status: z.enum(['healthy', 'degraded', 'unhealthy']),
  version: z.string(),
  components: z.looseObject({
    database: componentStatus,
    llm: componentStatus,
    speech: componentStatus,
    transcription: componentStatus,
  }),
});
export type Health = z.infer<typeof health>;

/** Model entries may be bare names or labelled objects; the SPA normalises both. */
export const modelEntry = z.union([
  z.string(),
  z.looseObject({
    name: z.string(),
    provider: z.string().optional(),
    label: z.string().optional(),
    offline: z.boolean().optional(),
    /** The model connection it comes from (docs/models.md): the picker groups by it and marks unreachable ones. */
    connection_id: z.string().optional(),
    connection_name: z.string().optional(),
    reachable: z.boolean().optional(),
  }),
]);
export const modelsResponse = z.union([z.array(modelEntry), z.looseObject({ models: z.array(modelEntry) })]);
export type ModelsResponse = z.infer<typeof modelsResponse>;

export const monitorStats = z.looseObject({
  agents: z.number().optional(),
  connections: z.number().optional(),
  audio_files: z.number().optional(),
  discussions: z.number().optional(),
  active_discussions: z.number().optional(),
  sockets: z.number().optional(),
  uptime_s: z.number().optional(),
  memory_mb: z.number().optional(),
});
export type MonitorStats = z.infer<typeof monitorStats>;

/** /monitor/server: the figures of the whole server (every user), with its full health, for the operator. */
export const serverMonitor = z.looseObject({ health });

export const debugInfo = z.looseObject({
  version: z.string(),
  node: z.string(),
  database: z.string(),
  providers: z.record(z.string(), z.string()),
  uptime_s: z.number(),
});

/** One choice in the editor's model select, whatever shape the entry arrived in. */
export interface ModelOption {
  value: string;
  label: string;
  offline: boolean;
  /** The picker's group: the connection's name, 'Offline demo', or '' for a plain name. */
  group?: string;
  /** Its connection did not answer when the list was made. */
  unreachable?: boolean;
}

/** The offline model's group in every picker. */
export const OFFLINE_GROUP = 'Offline demo';

export function normalizeModels(body: ModelsResponse): ModelOption[] {
  const entries = Array.isArray(body) ? body : body.models;
  return entries.map((e) => {
    if (typeof e === 'string') {
      const offline = e === OFFLINE_MODEL;
      return { value: e, label: offline ? OFFLINE_MODEL_LABEL : e, offline };
    }
    const offline = e.offline === true || e.name === OFFLINE_MODEL;
    const label = e.label ?? (offline ? OFFLINE_MODEL_LABEL : e.name);
    const group = offline ? OFFLINE_GROUP : (e.connection_name ?? '');
    return {
      value: e.name,
      label,
      offline,
      ...(group ? { group } : {}),
      ...(e.reachable === false ? { unreachable: true } : {}),
    };
  });
}
