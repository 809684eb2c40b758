import type { FastifyInstance } from 'fastify';
import { COMMUNICATION_PRESETS, DEFAULT_TTS, SPEED_CHOICES } from '../../src/schemas/constants';
import {
  hybridModesResponse,
  ontologiesResponse,
  reasoningTypesResponse,
  ttsConfigOptionsResponse,
} from '../../src/schemas/hybridMeta';
import type { ZodTypeProvider } from '../http/routeSchema';
import type { z } from 'zod';
import { requireUser } from '../auth/guard';

// /api/ws/hybrid/* — what the hybrid settings offer, described for people choosing among them.

const MODES: z.infer<typeof hybridModesResponse>['modes'] = [
  {
    id: 'natural',
    name: 'Natural',
    description: 'Agents talk in plain language, answering each other by name.',
    best_for: 'Open exploration, brainstorming and early framing of a problem',
  },
  {
    id: 'structured',
    name: 'Structured',
    description:
      'Every turn is a formal ACL message (inform, propose, accept-proposal, reject-proposal, query-if…) with explicit content.',
    best_for: 'Negotiation, decisions that need an audit trail, and agent-to-agent protocols',
  },
  {
    id: 'hybrid',
    name: 'Hybrid',
    description: 'Natural language with the formal ACL communications attached to each turn.',
    best_for: 'Most discussions: readable for people, precise for agents',
  },
  {
    id: 'adaptive',
    name: 'Adaptive',
    description: 'Starts natural, switches to structured while agents disagree, and back once they converge.',
    best_for: 'Contentious topics where the discussion should tighten only when it needs to',
  },
];

const ONTOLOGIES: z.infer<typeof ontologiesResponse>['ontologies'] = [
  {
    id: 'fipa-acl',
    name: 'FIPA ACL',
    description:
      'The FIPA agent communication language: performatives such as inform, request, propose, agree, refuse, query-if.',
  },
  {
    id: 'general',
    name: 'General discussion',
    description: 'Claims, evidence, proposals, objections and agreements, with no domain vocabulary.',
  },
  { id: 'agriculture', name: 'Agriculture', description: 'Crops, soils, water, inputs, yields and farm economics.' },
  {
    id: 'vineyard',
    name: 'Vineyard and viticulture',
    description: 'Vines, canopy and water management, ripening, harvest and wine quality.',
  },
  {
    id: 'plant_pathology',
    name: 'Plant pathology',
    description: 'Pathogens, symptoms, disease pressure, diagnosis and treatment.',
  },
  {
    id: 'iot_sensors',
    name: 'IoT sensors',
    description: 'Sensor networks, telemetry, thresholds, alerts and data quality.',
  },
];

const REASONING_TYPES: z.infer<typeof reasoningTypesResponse>['reasoning_types'] = [
  { id: 'deductive', name: 'Deductive', description: 'From accepted premises to what must follow.' },
  {
    id: 'inductive',
    name: 'Inductive',
    description: 'From observations and cases to a general rule, with stated confidence.',
  },
  { id: 'abductive', name: 'Abductive', description: 'From evidence to the most plausible explanation.' },
  { id: 'analogical', name: 'Analogical', description: 'From a similar, better-understood case to this one.' },
  { id: 'causal', name: 'Causal', description: 'Tracing causes and effects, including side effects and feedback.' },
  {
    id: 'counterfactual',
    name: 'Counterfactual',
    description: 'What would happen under a different choice or condition.',
  },
];

/** Formats each engine can produce. */
const FORMATS: Record<string, string[]> = {
  espeak: ['wav'],
  'openai-speech': ['wav', 'mp3', 'flac', 'ogg'],
  none: ['wav'],
};

export async function hybridMetaRoutes(app: FastifyInstance) {
  const { ctx } = app;
  const tags = ['Hybrid settings'];
  await app.register(async (plugin) => {
    const authed = plugin.withTypeProvider<ZodTypeProvider>();
    authed.addHook('onRequest', requireUser(ctx));
    authed.get(
      '/api/ws/hybrid/modes',
      { schema: { tags, summary: 'The hybrid communication modes', response: { 200: hybridModesResponse } } },
      async () => ({ modes: MODES }),
    );
    authed.get(
      '/api/ws/hybrid/ontologies',
      {
        schema: { tags, summary: 'The ontologies a hybrid discussion can use', response: { 200: ontologiesResponse } },
      },
      async () => ({ ontologies: ONTOLOGIES }),
    );
    authed.get(
      '/api/ws/hybrid/reasoning-types',
      { schema: { tags, summary: 'The reasoning types', response: { 200: reasoningTypesResponse } } },
      async () => ({ reasoning_types: REASONING_TYPES }),
    );
    const ttsOptions = {
      tags,
      summary: 'Speech options: speeds, formats, defaults and the communication presets',
      response: { 200: ttsConfigOptionsResponse },
    };
    authed.get(
      '/api/ws/hybrid/tts-config-options',
      { schema: ttsOptions },
      async (): Promise<z.infer<typeof ttsConfigOptionsResponse>> => ({
        speeds: [...SPEED_CHOICES],
        formats: FORMATS[ctx.providers.speech.id] ?? ['wav'],
        defaults: { ...DEFAULT_TTS },
        presets: { ...COMMUNICATION_PRESETS },
        speech_available: ctx.providers.speech.available(),
        speech_provider: ctx.providers.speech.id,
      }),
    );
  });
}
