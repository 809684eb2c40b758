import { z } from 'zod';

// /api/ws/hybrid/* metadata the hybrid settings read.
export const hybridModeInfo = z.looseObject({ name: z.string(), description: z.string(), best_for: z.string() });
export type HybridModeInfo = z.infer<typeof hybridModeInfo>;
export const hybridModesResponse = z.looseObject({ modes: z.array(hybridModeInfo.extend({ id: z.string() })) });
export const ontologiesResponse = z.looseObject({
  ontologies: z.array(z.looseObject({ id: z.string(), name: z.string(), description: z.string() })),
});
export const reasoningTypesResponse = z.looseObject({
  reasoning_types: z.array(z.looseObject({ id: z.string(), name: z.string(), description: z.string() })),
});
export const communicationPreset = z.object({
  min_tokens: z.number(),
  max_tokens: z.number(),
  temperature: z.number(),
  description: z.string(),
});
export type CommunicationPreset = z.infer<typeof communicationPreset>;
export const ttsConfigOptionsResponse = z.looseObject({
  speeds: z.array(z.number()),
  formats: z.array(z.string()),
  defaults: z.record(z.string(), z.unknown()),
  presets: z.record(z.string(), communicationPreset),
});
