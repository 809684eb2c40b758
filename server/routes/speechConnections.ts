import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
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
import { assertRoomForConnection, assertTtsQuota, connectionRateLimits } from '../connections/caps';
import { HttpError } from '../http/errors';
import type { ZodTypeProvider } from '../http/routeSchema';
import { secretBox } from '../models/service';
import { ProviderError } from '../providers/errors';
import { writeTtsAudio } from '../providers/speech/media';
import { clearAgentVoice, getAgentVoice, setAgentVoice, speakSample } from '../voices/agentVoice';
import {
  findSpeechTarget,
  forgetAbilities,
  listSpeechConnections,
  refuseBlockedSpeechUrl,
  rowSpeechTarget,
  serverSpeechTargets,
  speechConnectionView,
  testSpeechTarget,
} from '../voices/service';
import { deleteSpeechRow, insertSpeechRow, ownedSpeechRow, updateSpeechRow, voicesOn } from '../voices/store';

// Speech connections and agent voices (README 'Voices'): the user's own speech servers beside the server's own,
// their Test, a voice sample, and each agent's voice. Scoped to the signed-in user; no answer holds an API key.

const idParams = z.object({ id: z.string().min(1).max(100) });
const tags = ['Voices'];
const READ_ONLY = "The server's own speech connection is read-only (it comes from the server's environment)";
const NOT_FOUND = { 404: 'No such speech connection' };

export async function speechConnectionRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const { ctx } = app;
  app.addHook('onRequest', requireUser(ctx));
  const { testLimited, saveLimited } = connectionRateLimits(app, ctx);

  const refuseBlocked = async (baseUrl: string) => {
    const blocked = await refuseBlockedSpeechUrl(ctx, baseUrl);
    if (blocked) throw new HttpError(422, `This address may not be used: ${blocked}`);
  };
  const keyStaysHome = (stored: { base_url: string; api_key_sealed: string | null }, baseUrl: string) => {
    if (stored.api_key_sealed && new URL(stored.base_url).origin !== new URL(baseUrl).origin) {
      throw new HttpError(
        422,
        'Enter the API key again to use it at another address (a stored key is only sent where it was entered)',
      );
    }
  };
  const serverOwned = (id: string) => serverSpeechTargets(ctx).some((t) => t.id === id);
  const changed = (userId: string) => ctx.hub.broadcast(userId, { type: 'model_connections_changed' });
  // The agent's card names its voice: it hears the change as any other change of the agent.
  const agentChanged = async (userId: string, agentId: string) =>
    ctx.hub.broadcast(userId, { type: 'agent_updated', agent: toAgent(await ownedAgent(ctx.db, userId, agentId)) });
  const view = async (userId: string, id: string) =>
    speechConnection.parse(await speechConnectionView(ctx, userId, id));

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

  app.post(
    '/speech-connections/test',
    {
      ...testLimited,
      schema: {
        tags,
        summary: 'Test a speech connection: the voices it lists and whether it can clone, or exactly what failed',
        body: speechConnectionTestBody,
        response: { 200: speechConnectionTestResult },
        errors: { ...NOT_FOUND, 429: 'Too many tests in a minute' },
      },
    },
    async (req) => {
      const body = req.body;
      let apiKey = body.api_key ?? null;
      if (!apiKey && body.id) {
        const row = await ownedSpeechRow(ctx.db, req.userId, body.id);
        keyStaysHome(row, body.base_url);
        apiKey = (await rowSpeechTarget(ctx, row)).apiKey;
      }
      return testSpeechTarget(ctx, {
        id: body.id ?? 'test',
        kind: body.kind,
        name: 'test',
        baseUrl: body.base_url,
        apiKey,
        model: null,
        keyHint: null,
        readOnly: false,
        version: 'test',
      });
    },
  );

  app.post(
    '/speech-connections',
    {
      ...saveLimited,
      schema: {
        tags,
        summary: 'Add a speech connection',
        description: 'The API key is stored encrypted and never sent back.',
        body: speechConnectionCreate,
        response: { 201: speechConnection },
        errors: {
          409: 'A speech connection with this name exists, or you have as many as the server allows',
          429: 'Too many saves in a minute',
        },
      },
    },
    async (req, reply) => {
      const body = req.body;
      await assertRoomForConnection(ctx, 'speech_connections', req.userId, 'speech connections');
      await refuseBlocked(body.base_url);
      const row = await insertSpeechRow(ctx.db, await secretBox(ctx), req.userId, {
        kind: body.kind,
        name: body.name,
        base_url: body.base_url,
        model: body.model || null,
        api_key: body.api_key || null,
      });
      changed(req.userId);
      reply.status(201);
      return view(req.userId, row.id);
    },
  );

  app.patch(
    '/speech-connections/:id',
    {
      ...saveLimited,
      schema: {
        tags,
        summary: 'Edit a speech connection',
        description: 'An absent `api_key` keeps the stored one; `""` removes it.',
        params: idParams,
        body: speechConnectionUpdate,
        response: { 200: speechConnection },
        errors: { 403: READ_ONLY, ...NOT_FOUND, 429: 'Too many saves in a minute' },
      },
    },
    async (req) => {
      const { id } = req.params;
      const body = req.body;
      if (serverOwned(id)) throw new HttpError(403, READ_ONLY);
      if (body.base_url) {
        await refuseBlocked(body.base_url);
        if (body.api_key === undefined) keyStaysHome(await ownedSpeechRow(ctx.db, req.userId, id), body.base_url);
      }
      await updateSpeechRow(ctx.db, await secretBox(ctx), req.userId, id, {
        ...body,
        model: body.model === undefined ? undefined : body.model || null,
      });
      forgetAbilities(ctx, id);
      changed(req.userId);
      return view(req.userId, id);
    },
  );

  app.delete(
    '/speech-connections/:id',
    {
      schema: {
        tags,
        summary: 'Delete a speech connection and its stored key',
        description: 'Agents with a voice on it go back to the server’s default speech.',
        params: idParams,
        response: { 204: z.undefined() },
        errors: { 403: READ_ONLY, ...NOT_FOUND },
      },
    },
    async (req, reply) => {
      const { id } = req.params;
      if (serverOwned(id)) throw new HttpError(403, READ_ONLY);
      await ownedSpeechRow(ctx.db, req.userId, id);
      // Clones registered there are the speakers': they leave with the connection.
      for (const v of await voicesOn(ctx.db, req.userId, id))
        await clearAgentVoice(ctx, req.userId, v.agent_id).catch(() => {});
      await deleteSpeechRow(ctx.db, req.userId, id);
      forgetAbilities(ctx, id);
      changed(req.userId);
      return reply.status(204).send();
    },
  );

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
