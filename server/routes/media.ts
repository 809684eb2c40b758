import { stat } from 'node:fs/promises';
import type { FastifyInstance, FastifyReply, FastifyRequest, FastifySchema } from 'fastify';
import { z } from 'zod';
import { SERVER_DETAIL } from '../../src/schemas/messages';
import { HttpError } from '../http/errors';
import { sendFile } from '../http/sendFile';
import { isStoredName, keyMatches, storedPath } from '../audio/audioFiles';
import type { AudioRow } from '../audio/audioStore';

const bearer = (req: FastifyRequest) => {
  const h = req.headers.authorization;
  return h && /^bearer /i.test(h) ? h.slice(7).trim() : null;
};

/**
 * GET/HEAD /media/audio/<server-made name>. Open to whoever holds the item's unguessable `?key=` (an <audio>
 * element cannot send a bearer token) or to its owner's bearer token. The name must be one the server makes
 * and must belong to a row, so no path the client sends reaches the filesystem.
 */
export async function mediaRoutes(app: FastifyInstance) {
  const { ctx } = app;

  const serve = async (req: FastifyRequest, reply: FastifyReply) => {
    const { name } = req.params as { name: string };
    const { key } = req.query as { key?: string };
    if (!isStoredName(name)) throw new HttpError(404, SERVER_DETAIL.notFound);
    const token = bearer(req);
    if (!key && !token) throw new HttpError(401, SERVER_DETAIL.notAuthenticated);
    const [row] = await ctx.db.query<AudioRow>(
      'SELECT file_name, mime_type, access_key, user_id FROM audio_items WHERE file_name = $1',
      [name],
    );
    // Wrong key and someone else's token look the same as a missing file.
    const allowed =
      row && (keyMatches(row.access_key, key) || (token !== null && (await ctx.tokens.verify(token)) === row.user_id));
    if (!allowed) throw new HttpError(404, SERVER_DETAIL.notFound);

    const file = storedPath(ctx.config.mediaDir, row.file_name);
    const size = await stat(file).then(
      (s) => s.size,
      () => -1,
    );
    if (size < 0) throw new HttpError(404, SERVER_DETAIL.notFound);

    return sendFile(req, reply, {
      path: file,
      size,
      mimeType: row.mime_type,
      headers: { 'content-disposition': 'inline' },
    });
  };

  // Name and key are checked by the handler (a bad one is a 404 like a missing file), so they are described, not validated here.
  const schema: FastifySchema = {
    tags: ['Media'],
    summary: 'A reference recording (byte ranges supported)',
    description:
      'The `audio_url` of an audio item, with its `?key=`, opens it without a token; its owner may use the bearer token instead.',
    security: [{ mediaKey: [] }, { bearer: [] }],
    files: { 200: 'audio/*', 206: 'audio/*' },
    errors: { 401: SERVER_DETAIL.notAuthenticated, 404: SERVER_DETAIL.notFound, 416: 'Range not satisfiable' },
    params: z.object({ name: z.string() }),
    querystring: z.object({ key: z.string().optional() }),
  };
  app.route({ method: ['GET', 'HEAD'], url: '/media/audio/:name', schema, handler: serve });
}
