import type { FastifyInstance } from 'fastify';
import {
  agentVoiceAnswer,
  agentVoiceUpdate,
  speechConnection,
  speechConnectionCreate,
  speechConnectionList,
  speechConnectionTestBody,
  speechConnectionTestResult,
  speechConnectionUpdate,
  voiceSampleAnswer,
  voiceSampleBody,
  VOICE_SAMPLE_TEXT,
} from '../../src/schemas/speechConnections';
import { ownedAgent, toAgent } from '../agents/agentStore';
import { requireUser } from '../auth/guard';
import { isOperator } from '../auth/operator';
import { assertTtsQuota } from '../connections/caps';
import { HttpError } from '../http/errors';
import type { ZodTypeProvider } from '../http/routeSchema';
import { ProviderError } from '../providers/errors';
import { writeTtsAudio } from '../providers/speech/media';
import { clearAgentVoice, getAgentVoice, setAgentVoice, speakSample } from '../voices/agentVoice';
import {
  findSpeechTarget,
  forgetAbilities,
  listSpeechConnections,
  serverSpeechTargets,
  speechConnectionView,
  testSpeechTarget,
} from '../voices/service';
import { speechConnectionStore, voicesOn } from '../voices/store';
import { connectionRoutes, idParams } from '../connections/routes';
import { testedTarget } from '../connections/target';

// Speech connections and agent voices (README 'Voices'): the user's own speech servers beside the server's own,
// their Test, a voice sample, and each agent's voice. Scoped to the signed-in user; no answer holds an API key.

const tags = ['Voices'];
const NOT_FOUND = { 404: 'No such speech connection' };

export async function speechConnectionRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const { ctx } = app;
  app.addHook('onRequest', requireUser(ctx));

  const serverOwned = (id: string) => serverSpeechTargets(ctx).some((t) => t.id === id);
  // The agent's card names its voice: it hears the change as any other change of the agent.
  const agentChanged = async (userId: string, agentId: string) =>
    ctx.hub.broadcast(userId, { type: 'agent_updated', agent: toAgent(await ownedAgent(ctx.db, userId, agentId)) });

  app.get(
    '/speech-connections',
    {
      schema: {
        tags,
        summary: "List the server's own speech connections and yours, each with what its server can do",
        response: { 200: speechConnectionList },
      },
    },
    async (req) =>
      speechConnectionList.parse({
        connections: await listSpeechConnections(ctx, req.userId, { operator: await isOperator(ctx, req.userId) }),
      }),
  );

  connectionRoutes(app, ctx, {
    path: '/speech-connections',
    table: 'speech_connections',
    tags,
    noun: 'speech connection',
    store: speechConnectionStore,
    schemas: {
      create: speechConnectionCreate,
      update: speechConnectionUpdate,
      testBody: speechConnectionTestBody,
      testResult: speechConnectionTestResult,
      view: speechConnection,
    },
    testSummary: 'Test a speech connection: the voices it lists and whether it can clone, or exactly what failed',
    serverOwned,
    test: (body, apiKey) => testSpeechTarget(ctx, { ...testedTarget(body.kind, body, apiKey), model: null }),
    toInput: (body) => ({
      kind: body.kind,
      name: body.name,
      base_url: body.base_url,
      model: body.model || null,
      api_key: body.api_key || null,
    }),
    toPatch: (body) => ({ ...body, model: body.model === undefined ? undefined : body.model || null }),
    view: (userId, id) => speechConnectionView(ctx, userId, id),
    forget: (id) => forgetAbilities(ctx, id),
    // Clones registered there are the speakers': they leave with the connection; agents go back to the default.
    beforeDelete: async (userId, id) => {
      for (const v of await voicesOn(ctx.db, userId, id))
        await clearAgentVoice(ctx, userId, v.agent_id).catch(() => {});
    },
  });

  app.post(
    '/speech-connections/:id/sample',
    {
      schema: {
        tags,
        summary: 'Speak a short sample in one of the connection’s voices',
        params: idParams,
        body: voiceSampleBody,
        response: { 200: voiceSampleAnswer },
        errors: {
          ...NOT_FOUND,
          429: 'Your stored speech has reached its quota (TTS_QUOTA_MB)',
          502: 'The voice server failed',
        },
      },
    },
    async (req) => {
      if (!(await findSpeechTarget(ctx, req.userId, req.params.id)))
        throw new HttpError(404, 'No such speech connection');
      // A sample is stored speech like any other: it counts against the quota and stops at it.
      await assertTtsQuota(ctx, req.userId);
      try {
        const out = await speakSample(ctx, req.userId, req.params.id, req.body.voice, VOICE_SAMPLE_TEXT);
        const stored = await writeTtsAudio(ctx.config.mediaDir, out.audio, out.extension);
        await ctx.db
          .query(
            'INSERT INTO tts_clips (file_name, user_id, size_bytes) VALUES ($1, $2, $3) ON CONFLICT (file_name) DO NOTHING',
            [stored.filename, req.userId, out.audio.length],
          )
          .catch(() => {});
        return { audio_url: stored.url };
      } catch (e) {
        if (e instanceof ProviderError) throw new HttpError(502, e.message);
        throw e;
      }
    },
  );

  // ── An agent's voice ──
  app.get(
    '/agents/:id/voice',
    {
      schema: {
        tags,
        summary: "An agent's voice (null: the server's default speech)",
        params: idParams,
        response: { 200: agentVoiceAnswer },
        errors: { 404: 'Agent not found' },
      },
    },
    async (req) => ({ voice: await getAgentVoice(ctx, req.userId, req.params.id) }),
  );

  app.put(
    '/agents/:id/voice',
    {
      schema: {
        tags,
        summary: "Set an agent's voice: a stock voice, or a clone of its default reference recording",
        description:
          'A clone needs `consent: true` and a default reference recording; on a server with a voice library it is registered there (POST /v1/voices).',
        params: idParams,
        body: agentVoiceUpdate,
        response: { 200: agentVoiceAnswer },
        errors: { 404: 'Agent or connection not found', 422: 'The voice cannot be used; the detail says why' },
      },
    },
    async (req) => {
      const voice = await setAgentVoice(ctx, req.userId, req.params.id, req.body);
      await agentChanged(req.userId, req.params.id);
      return { voice };
    },
  );

  app.delete(
    '/agents/:id/voice',
    {
      schema: {
        tags,
        summary: "Back to the server's default speech (a registered clone is deleted on its server)",
        params: idParams,
        response: { 200: agentVoiceAnswer },
      },
    },
    async (req) => {
      await clearAgentVoice(ctx, req.userId, req.params.id);
      await agentChanged(req.userId, req.params.id);
      return { voice: null };
    },
  );
}
