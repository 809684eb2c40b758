import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { SERVER_DETAIL } from '../../src/schemas/messages';
import { HttpError } from '../http/errors';
import { isStoredName, keyMatches, storedPath } from '../audio/audioFiles';
import type { AudioRow } from '../audio/audioStore';

const bearer = (req: FastifyRequest) => {
  const h = req.headers.authorization;
  return h && /^bearer /i.test(h) ? h.slice(7).trim() : null;
};

/** Parses a single `bytes=a-b` range (what <audio> asks for when seeking); null when absent or multi-range. */
function parseRange(header: string | undefined, size: number): { start: number; end: number } | 'unsatisfiable' | null {
  const m = header && /^bytes=(\d*)-(\d*)$/.exec(header.trim());
  if (!m || (m[1] === '' && m[2] === '')) return null;
  let start: number;
  let end: number;
  if (m[1] === '') {
    start = Math.max(0, size - Number(m[2]));
    end = size - 1;
  } else {
    start = Number(m[1]);
    end = m[2] === '' ? size - 1 : Math.min(Number(m[2]), size - 1);
  }
  return start > end || start >= size ? 'unsatisfiable' : { start, end };
}

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
    const [row] = await ctx.db.query<AudioRow>('SELECT file_name, mime_type, access_key, user_id FROM audio_items WHERE file_name = $1', [name]);
    // Wrong key and someone else's token look the same as a missing file.
    const allowed = row && (keyMatches(row.access_key, key) || (token !== null && (await ctx.tokens.verify(token)) === row.user_id));
    if (!allowed) throw new HttpError(404, SERVER_DETAIL.notFound);

    const file = storedPath(ctx.config.mediaDir, row.file_name);
    const size = await stat(file).then((s) => s.size, () => -1);
    if (size < 0) throw new HttpError(404, SERVER_DETAIL.notFound);

    reply
      .header('content-type', row.mime_type)
      .header('accept-ranges', 'bytes')
      .header('cache-control', 'private, max-age=3600')
      .header('x-content-type-options', 'nosniff')
      .header('content-disposition', 'inline');
    const range = parseRange(req.headers.range, size);
    if (range === 'unsatisfiable') return reply.status(416).header('content-range', `bytes */${size}`).send();
    const { start, end } = range ?? { start: 0, end: size - 1 };
    if (range) reply.status(206).header('content-range', `bytes ${start}-${end}/${size}`);
    reply.header('content-length', end - start + 1);
    if (req.method === 'HEAD') return reply.send();
    return reply.send(createReadStream(file, { start, end }));
  };

  app.route({ method: ['GET', 'HEAD'], url: '/media/audio/:name', handler: serve });
}
