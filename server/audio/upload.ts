import { open, rename, rm } from 'node:fs/promises';
import path from 'node:path';
import { Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { createWriteStream } from 'node:fs';
import type { FastifyRequest } from 'fastify';
import { AUDIO_MAX_BYTES } from '../../src/schemas/constants';
import { AUDIO_MESSAGES } from '../../src/schemas/messages';
import { HttpError } from '../http/errors';
import { ensureAudioDir, newStoredName } from './audioFiles';
import { sniffAudio, SNIFF_BYTES, type AudioKind } from './sniff';

export interface ReceivedAudio {
  fields: Record<string, string>;
  /** The stored file (already under its final server-made name), or null when the form carried none. */
  file: { storedName: string; path: string; size: number; kind: AudioKind } | null;
}

const MB = AUDIO_MAX_BYTES / (1024 * 1024);
// throwFileSizeLimit is honoured by parts() (README: "per-request options") but missing from its type. Off,
// an oversized file just ends truncated and the rest of the body is still read, so the 413 is delivered cleanly.
const PARTS_OPTIONS = { throwFileSizeLimit: false, limits: { fileSize: AUDIO_MAX_BYTES, files: 1 } } as Parameters<
  FastifyRequest['parts']
>[0];

/**
 * Reads a multipart upload: text fields, and one part named `file` streamed to a temporary file, checked for
 * size (413 beyond AUDIO_MAX_BYTES) and for its type by its first bytes (415 when it is not accepted audio),
 * then renamed to a server-made name. Nothing of the client's filename is used on disk. The caller owns the
 * returned file and must remove it if it does not keep it.
 */
export async function receiveAudio(req: FastifyRequest, mediaDir: string): Promise<ReceivedAudio> {
  if (!req.isMultipart()) throw new HttpError(415, 'Expected multipart/form-data with the fields name and file');
  const dir = await ensureAudioDir(mediaDir);
  const tmp = path.join(dir, `.upload-${process.pid}-${Date.now()}-${Math.random().toString(36).slice(2)}`);
  const fields: Record<string, string> = {};
  let size = -1;
  let truncated = false;
  const readParts = async () => {
    for await (const part of req.parts(PARTS_OPTIONS)) {
      if (part.type === 'field') {
        fields[part.fieldname] = String(part.value);
      } else if (part.fieldname !== 'file' || size >= 0) {
        part.file.resume(); // not ours: drain it so parsing can continue
      } else {
        size = 0;
        const count = new Transform({
          transform(chunk: Buffer, _enc, done) {
            size += chunk.length;
            done(null, chunk);
          },
        });
        await pipeline(part.file, count, createWriteStream(tmp, { flags: 'wx', mode: 0o600 }));
        truncated = part.file.truncated;
      }
    }
  };
  try {
    try {
      await readParts();
    } catch (err) {
      throw asUploadError(err);
    }
    if (size < 0) return { fields, file: null };
    if (truncated) throw new HttpError(413, AUDIO_MESSAGES.tooLarge(MB));
    if (size === 0) throw new HttpError(422, 'The audio file is empty');
    const kind = sniffAudio(await readHead(tmp));
    if (!kind) throw new HttpError(415, AUDIO_MESSAGES.unsupportedType);
    const storedName = newStoredName(kind.ext);
    const finalPath = path.join(dir, storedName);
    await rename(tmp, finalPath);
    return { fields, file: { storedName, path: finalPath, size, kind } };
  } finally {
    await rm(tmp, { force: true });
  }
}

/**
 * What went wrong while reading the parts. The multipart parser's own complaints (no boundary, a body cut off
 * mid-part, a malformed part header) are the client's: 400 with what the parser said. Limits keep their 4xx;
 * a file-system failure stays a server error.
 */
function asUploadError(err: unknown): unknown {
  if (err instanceof HttpError) return err;
  const e = err as { statusCode?: number; syscall?: string; message?: string };
  if (typeof e?.statusCode === 'number' && e.statusCode >= 400 && e.statusCode < 500)
    return new HttpError(e.statusCode, e.message ?? 'Bad upload');
  if (e?.syscall) return err;
  const why = (e?.message ?? 'unreadable').replace(/^Multipart:\s*/i, '');
  return new HttpError(400, `The upload is not a well-formed multipart/form-data body: ${why}`);
}

async function readHead(file: string): Promise<Buffer> {
  const fh = await open(file, 'r');
  try {
    const buf = Buffer.alloc(SNIFF_BYTES);
    const { bytesRead } = await fh.read(buf, 0, SNIFF_BYTES, 0);
    return buf.subarray(0, bytesRead);
  } finally {
    await fh.close();
  }
}
