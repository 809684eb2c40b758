import { z } from 'zod';

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
  z.looseObject({ name: z.string(), provider: z.string().optional(), label: z.string().optional(), offline: z.boolean().optional() }),
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

export const debugInfo = z.looseObject({
  version: z.string(),
  node: z.string(),
  database: z.string(),
  providers: z.record(z.string(), z.string()),
  uptime_s: z.number(),
});
