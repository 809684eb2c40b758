import { randomUUID } from 'node:crypto';
import fastifyMultipart from '@fastify/multipart';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import {
  audioList,
  audioUploadFields,
  audioUploadForm,
  audioUploadResponse,
  batchTranscribeRequest,
  batchTranscribeResponse,
  setDefaultResponse,
  transcribeRequest,
  transcribeResponse,
} from '../../src/schemas/audio';
import { deletedResponse, idText } from '../../src/schemas/common';
import { AUDIO_MAX_BYTES } from '../../src/schemas/constants';
import { AUDIO_MESSAGES } from '../../src/schemas/messages';
import { ownedAgent } from '../agents/agentStore';
import { requireUser } from '../auth/guard';
import type { Queryable } from '../db/db';
import { HttpError, parseWith } from '../http/errors';
import type { ZodTypeProvider } from '../http/routeSchema';
import { newAccessKey as newKey, removeStoredFiles } from '../audio/audioFiles';
import { AUDIO_NOT_FOUND, listAudio, ownedAudio, toAudioItem, type AudioRow } from '../audio/audioStore';
import {
  transcribeAndStore,
  TranscriptionFailure,
  transcriptionAvailable,
  TranscriptionQueue,
} from '../audio/transcription';
import { receiveAudio } from '../audio/upload';

const agentParams = z.object({ id: idText() });
const audioParams = z.object({ audioId: idText() });
const MB = 1024 * 1024;
// Multipart carries text: anything but an explicit no means yes (the spec's default is true).
const wantsTranscript = (v: string | undefined) => !/^(false|0|no|off)$/i.test((v ?? 'true').trim());

// Locks the agent's row for the rest of the transaction, so two uploads, set-defaults or deletes of the same
// agent's audio run one after the other and "exactly one default" holds (a partial unique index backs it).
async function lockAgent(tx: Queryable, userId: string, agentId: string) {
  const rows = await tx.query('SELECT id FROM agents WHERE id = $1 AND user_id = $2 FOR UPDATE', [agentId, userId]);
  if (!rows.length) await ownedAgent(tx, userId, agentId); // throws 'Agent not found'
}

const audioBytesOf = async (db: Queryable, userId: string) =>
  Number(
    (
      await db.query<{ n: string | null }>('SELECT sum(size_bytes) AS n FROM audio_items WHERE user_id = $1', [userId])
    )[0]?.n ?? 0,
  );

/** AUDIO_QUOTA_MB: what one user's reference audio may take on disk. */
function checkAudioQuota(used: number, adding: number, quota: number) {
  if (used + adding <= quota) return;
  const mb = (n: number) => (n / MB).toFixed(1);
  throw new HttpError(
    413,
    `Your reference audio would take ${mb(used + adding)} MB of the ${mb(quota)} MB each user may store; delete some recordings first.`,
  );
}

/** Reference audio: list, upload, delete, set default, transcribe one, transcribe all in the background. */
export async function audioRoutes(fastify: FastifyInstance) {
  // Only these routes take multipart bodies: registered here, its three request hooks stay off every other route.
  await fastify.register(fastifyMultipart, { limits: { fileSize: AUDIO_MAX_BYTES, files: 1, fields: 10 } });
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const { ctx } = app;
  const tags = ['Reference audio'];
  const AGENT_404 = { 404: 'Agent not found' };
  const AUDIO_404 = { 404: AUDIO_NOT_FOUND };
  app.addHook('onRequest', requireUser(ctx));
  const queue = new TranscriptionQueue(ctx, (m) => app.log.warn(m));
  app.addHook('onClose', () => queue.close());

  app.get(
    '/agents/:id/audio',
    {
      schema: {
        tags,
        summary: "An agent's reference audio",
        params: agentParams,
        response: { 200: audioList },
        errors: AGENT_404,
      },
    },
    async (req) => {
      const { id } = req.params;
      await ownedAgent(ctx.db, req.userId, id);
      return (await listAudio(ctx.db, req.userId, id)).map(toAudioItem);
    },
  );

  const uploadSchema = {
    tags,
    summary: 'Upload a reference recording',
    description:
      "The agent's first recording becomes its default voice. It is transcribed unless `auto_transcribe` says no; a failed transcription is answered in `transcription_error`, never as a failed upload.",
    params: agentParams,
    multipart: audioUploadForm,
    response: { 201: audioUploadResponse },
    errors: {
      404: 'Agent not found',
      413: 'The file or your audio quota (AUDIO_QUOTA_MB) is too large',
      415: 'Not an audio file this server accepts',
    },
  };
  app.post('/agents/:id/audio', { schema: uploadSchema }, async (req, reply) => {
    const { id } = req.params;
    await ownedAgent(ctx.db, req.userId, id); // before a byte reaches the disk
    const quota = ctx.config.audioQuotaMb * MB;
    if (quota > 0) checkAudioQuota(await audioBytesOf(ctx.db, req.userId), 0, quota);
    const { fields, file } = await receiveAudio(req, ctx.config.mediaDir);
    let kept = false;
    try {
      if (!file || !(fields.name ?? '').trim()) throw new HttpError(422, AUDIO_MESSAGES.nameAndFileRequired);
      const { name, auto_transcribe } = parseWith(audioUploadFields, fields);
      const row = await ctx.db.transaction(async (tx) => {
        await lockAgent(tx, req.userId, id);
        if (quota > 0) {
          // The user's row is the lock: two uploads of one user count one after the other.
          await tx.query('SELECT id FROM users WHERE id = $1 FOR UPDATE', [req.userId]);
          checkAudioQuota(await audioBytesOf(tx, req.userId), file.size, quota);
        }
        // The agent's first reference voice becomes its default.
        const [r] = await tx.query<AudioRow>(
          `INSERT INTO audio_items (id, user_id, agent_id, name, file_name, mime_type, size_bytes, access_key, is_default)
           VALUES ($1, $2, $3, $4, $5, $6, $7, $8, NOT EXISTS (SELECT 1 FROM audio_items WHERE agent_id = $3 AND is_default))
           RETURNING *`,
          [randomUUID(), req.userId, id, name, file.storedName, file.kind.mime, file.size, newKey()],
        );
        return r;
      });
      kept = true;

      // Transcription never fails the upload: the item is stored either way and the reason is answered.
      let transcription_error: string | null = null;
      if (wantsTranscript(auto_transcribe)) {
        try {
          row.transcript = await transcribeAndStore(ctx, row);
        } catch (e) {
          transcription_error = e instanceof TranscriptionFailure ? e.message : 'Transcription failed';
        }
      }
      reply.status(201);
      return { ...toAudioItem(row), transcription_error };
    } finally {
      if (file && !kept) await removeStoredFiles(ctx.config.mediaDir, [file.storedName]);
    }
  });

  app.delete(
    '/agents/audio/:audioId',
    {
      schema: {
        tags,
        summary: 'Delete a recording',
        description: 'Deleting the default makes the newest remaining one the default.',
        params: audioParams,
        response: { 200: deletedResponse },
        errors: AUDIO_404,
      },
    },
    async (req) => {
      const { audioId } = req.params;
      const removed = await ctx.db.transaction(async (tx) => {
        const row = await ownedAudio(tx, req.userId, audioId);
        await lockAgent(tx, req.userId, row.agent_id);
        const [gone] = await tx.query<AudioRow>('DELETE FROM audio_items WHERE id = $1 AND user_id = $2 RETURNING *', [
          audioId,
          req.userId,
        ]);
        if (!gone) throw new HttpError(404, AUDIO_NOT_FOUND);
        // Losing the default promotes the newest remaining item, so an agent with audio always has a voice.
        if (gone.is_default) {
          await tx.query(
            `UPDATE audio_items SET is_default = true WHERE id =
             (SELECT id FROM audio_items WHERE agent_id = $1 AND user_id = $2 ORDER BY created_at DESC, id DESC LIMIT 1)`,
            [gone.agent_id, req.userId],
          );
        }
        return gone;
      });
      await removeStoredFiles(ctx.config.mediaDir, [removed.file_name], (m) => req.log.warn(m));
      return { success: true, id: audioId };
    },
  );

  app.post(
    '/agents/audio/:audioId/set-default',
    {
      schema: {
        tags,
        summary: "Make a recording the agent's default voice",
        params: audioParams,
        response: { 200: setDefaultResponse },
        errors: AUDIO_404,
      },
    },
    async (req) => {
      const { audioId } = req.params;
      const row = await ctx.db.transaction(async (tx) => {
        const current = await ownedAudio(tx, req.userId, audioId);
        await lockAgent(tx, req.userId, current.agent_id);
        // Clear first, then set: the partial unique index would reject two defaults even for an instant.
        await tx.query(
          'UPDATE audio_items SET is_default = false WHERE agent_id = $1 AND user_id = $2 AND is_default AND id <> $3',
          [current.agent_id, req.userId, audioId],
        );
        const [updated] = await tx.query<AudioRow>(
          'UPDATE audio_items SET is_default = true WHERE id = $1 AND user_id = $2 RETURNING *',
          [audioId, req.userId],
        );
        return updated;
      });
      return { success: true, ...toAudioItem(row) };
    },
  );

  // Answers 200 with success false when transcription cannot run or fails: the client shows the message.
  const transcribeSchema = {
    tags,
    summary: 'Transcribe one recording now',
    description: 'Answers 200 with `success: false` and the reason when no engine can transcribe it.',
    body: transcribeRequest,
    response: { 200: transcribeResponse },
    errors: AUDIO_404,
  };
  app.post('/agents/audio/transcribe', { schema: transcribeSchema }, async (req) => {
    const { audio_id } = req.body;
    const row = await ownedAudio(ctx.db, req.userId, audio_id);
    try {
      const transcript = await transcribeAndStore(ctx, row);
      return { success: true, transcript, message: 'Transcription completed' };
    } catch (e) {
      if (!(e instanceof TranscriptionFailure)) throw e;
      return { success: false, transcript: row.transcript, message: e.message };
    }
  });

  // Answers the count at once and transcribes in the background. With no engine it refuses (503) rather
  // than report work that will never happen.
  const batchSchema = {
    tags,
    summary: "Transcribe an agent's recordings in the background",
    description: 'Answers how many will be transcribed, at once.',
    body: batchTranscribeRequest,
    response: { 200: batchTranscribeResponse },
    errors: { 404: 'Agent not found', 503: AUDIO_MESSAGES.noTranscriptionEngine },
  };
  app.post('/agents/audio/batch-transcribe', { schema: batchSchema }, async (req) => {
    const { agent_id, force_retranscribe } = req.body;
    await ownedAgent(ctx.db, req.userId, agent_id);
    if (!transcriptionAvailable(ctx)) throw new HttpError(503, AUDIO_MESSAGES.noTranscriptionEngine);
    const rows = await ctx.db.query<AudioRow>(
      `SELECT * FROM audio_items WHERE agent_id = $1 AND user_id = $2 AND ($3 OR transcript IS NULL OR btrim(transcript) = '')
       ORDER BY created_at, id`,
      [agent_id, req.userId, force_retranscribe],
    );
    queue.enqueue(rows);
    const count = rows.length;
    return { count, message: count ? AUDIO_MESSAGES.batchStarted(count) : AUDIO_MESSAGES.nothingToTranscribe };
  });
}
