import { stat } from 'node:fs/promises';
import path from 'node:path';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { SERVER_DETAIL } from '../../src/schemas/messages';
import { z } from 'zod';
import { ttsSpeakRequest, ttsSpeakResponse, ttsStatus, ttsVoices } from '../../src/schemas/tts';
import { ownedAgent } from '../agents/agentStore';
import { requireUser } from '../auth/guard';
import { isOperator } from '../auth/operator';
import { HttpError } from '../http/errors';
import type { ZodTypeProvider } from '../http/routeSchema';
import { sendFile } from '../http/sendFile';
import { ProviderError } from '../providers/errors';
import { MIME_BY_EXTENSION } from '../providers/speech/audioTypes';
import { isServableTtsName, ttsDir } from '../providers/speech/media';
import { speakAsAgent } from '../providers/speech/speak';
import { assertTtsQuota } from '../connections/caps';
import { agentSpeech } from '../voices/agentVoice';
import { espeakFallback } from '../voices/fallback';

// Speech: /api/tts/speak, /voices, /status (signed in), and the clips themselves at /media/tts/<name>.
// Clips are open to whoever has the URL (an <audio> element sends no bearer token); the random name is
// the capability, as for reference audio keys.

export async function ttsRoutes(app: FastifyInstance) {
  const { ctx } = app;

  const serve = async (req: FastifyRequest, reply: FastifyReply) => {
    const { name } = req.params as { name: string };
    if (!isServableTtsName(name)) throw new HttpError(404, SERVER_DETAIL.notFound);
    const file = path.join(ttsDir(ctx.config.mediaDir), name);
    const size = await stat(file).then(
      (s) => (s.isFile() ? s.size : -1),
      () => -1,
    );
    if (size < 0) throw new HttpError(404, SERVER_DETAIL.notFound);
    return sendFile(req, reply, { path: file, size, mimeType: MIME_BY_EXTENSION[path.extname(name).slice(1)] });
  };
  const clipSchema = {
    tags: ['Media'],
    summary: 'A speech clip (byte ranges supported)',
    description: 'The `audio_url` of a spoken turn or of /api/tts/speak; its random name is the capability.',
    security: [],
    params: z.object({ name: z.string() }),
    files: { 200: 'audio/*', 206: 'audio/*' },
    errors: { 404: SERVER_DETAIL.notFound, 416: 'Range not satisfiable' },
  };
  app.route({ method: ['GET', 'HEAD'], url: '/media/tts/:name', schema: clipSchema, handler: serve });

  const tags = ['Speech'];
  await app.register(async (plugin) => {
    const authed = plugin.withTypeProvider<ZodTypeProvider>();
    authed.addHook('onRequest', requireUser(ctx));

    const speakSchema = {
      tags,
      summary:
        "Speak a text in the agent's own voice (a stock voice or a clone of its recording), else the default speech",
      body: ttsSpeakRequest,
      response: { 200: ttsSpeakResponse },
      errors: {
        404: 'Agent not found',
        429: 'Your stored speech has reached its quota (TTS_QUOTA_MB)',
        502: 'The speech engine failed',
        503: 'No speech engine is configured',
      },
    };
    authed.post('/api/tts/speak', { schema: speakSchema }, async (req) => {
      const body = req.body;
      const maxText = ctx.config.ttsMaxTextLength;
      if (maxText > 0 && body.text.length > maxText) {
        throw new HttpError(
          422,
          `The text is too long to speak: ${body.text.length} characters, at most ${maxText} (TTS_MAX_TEXT_LENGTH).`,
        );
      }
      if (body.agent_id) await ownedAgent(ctx.db, req.userId, body.agent_id);
      await assertTtsQuota(ctx, req.userId);
      try {
        const clip = await speakAsAgent(
          {
            db: ctx.db,
            mediaDir: ctx.config.mediaDir,
            speech: ctx.providers.speech,
            voiceOf: (u, a) => agentSpeech(ctx, u, a),
            fallback: espeakFallback(ctx),
          },
          { userId: req.userId, agentId: body.agent_id, text: body.text },
        );
        return {
          audio_url: clip.audio_url,
          filename: clip.filename,
          provider: ctx.providers.speech.id,
          cloned: clip.cloned,
        };
      } catch (e) {
        if (e instanceof ProviderError && e.kind === 'unconfigured') throw new HttpError(503, e.message);
        const why = (e as Error).message;
        req.log.warn({ err: e }, 'speech synthesis failed');
        throw new HttpError(502, `Speech synthesis failed: ${why}`);
      }
    });

    authed.get(
      '/api/tts/voices',
      { schema: { tags, summary: 'The voices the speech engine offers', response: { 200: ttsVoices } } },
      async (req) => {
        const speech = ctx.providers.speech;
        if (!speech.available()) return { voices: [], provider: speech.id, cloning: false };
        const voices: Array<{ id: string; name: string; agent_id?: string }> = [
          { id: 'default', name: speech.id === 'espeak' ? 'espeak-ng default voice' : 'Speech server default voice' },
        ];
        // An agent whose own voice is cloned from its reference recording (through a voice-cloning connection).
        const rows = await ctx.db.query<{ id: string; name: string }>(
          `SELECT a.id, a.name FROM agents a JOIN agent_voices v ON v.agent_id = a.id AND v.user_id = a.user_id
           WHERE a.user_id = $1 AND v.mode = 'clone'
           ORDER BY a.created_at, a.id`,
          [req.userId],
        );
        for (const r of rows) voices.push({ id: `agent:${r.id}`, name: `${r.name} (cloned voice)`, agent_id: r.id });
        const cloning = rows.length > 0;
        return { voices, provider: speech.id, cloning };
      },
    );

    authed.get(
      '/api/tts/status',
      {
        schema: {
          tags,
          summary: 'Whether speech works here, and with which engine',
          description: '`detail` names paths and addresses for the operator only.',
          response: { 200: ttsStatus },
        },
      },
      async (req) => {
        const speech = ctx.providers.speech;
        const probe = await speech
          .probe()
          .catch((e) => ({ status: 'unavailable' as const, detail: (e as Error).message }));
        // A working or failing engine's detail holds its path or address (the operator's); 'disabled' says only why.
        const detail = probe.status === 'disabled' || (await isOperator(ctx, req.userId)) ? probe.detail : undefined;
        return {
          available: speech.available() && probe.status === 'ok',
          provider: speech.id,
          detail,
          status: probe.status,
          // Cloning goes through the user's voice-cloning connections (Models → Speech), not this engine.
          cloning: false,
        };
      },
    );
  });
}
