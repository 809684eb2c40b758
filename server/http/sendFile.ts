import { createReadStream } from 'node:fs';
import type { FastifyReply, FastifyRequest } from 'fastify';

// Answers GET/HEAD for an audio file on disk the way <audio> needs it: byte ranges for seeking (one range;
// a multi-range request gets the whole file), HEAD without a body, and private caching.

/** One `bytes=a-b` range, as <audio> asks when seeking; null when absent or multi-range. */
export function byteRange(
  header: string | undefined,
  size: number,
): { start: number; end: number } | 'unsatisfiable' | null {
  const m = header && /^bytes=(\d*)-(\d*)$/.exec(header.trim());
  if (!m || (m[1] === '' && m[2] === '')) return null;
  const start = m[1] === '' ? Math.max(0, size - Number(m[2])) : Number(m[1]);
  const end = m[1] === '' || m[2] === '' ? size - 1 : Math.min(Number(m[2]), size - 1);
  return start > end || start >= size ? 'unsatisfiable' : { start, end };
}

/** `size` is the file's, already checked by the caller (which answers 404 when it is missing). */
export function sendFile(
  req: FastifyRequest,
  reply: FastifyReply,
  file: { path: string; size: number; mimeType: string; headers?: Record<string, string> },
) {
  const { size } = file;
  reply
    .header('content-type', file.mimeType)
    .header('accept-ranges', 'bytes')
    .header('cache-control', 'private, max-age=3600')
    .header('x-content-type-options', 'nosniff')
    .headers(file.headers ?? {});
  const range = byteRange(req.headers.range, size);
  if (range === 'unsatisfiable') return reply.status(416).header('content-range', `bytes */${size}`).send();
  const { start, end } = range ?? { start: 0, end: size - 1 };
  if (range) reply.status(206).header('content-range', `bytes ${start}-${end}/${size}`);
  reply.header('content-length', end - start + 1);
  // An empty file has no byte to stream (a read stream cannot end before it starts).
  if (req.method === 'HEAD' || size === 0) return reply.send();
  return reply.send(createReadStream(file.path, { start, end }));
}
