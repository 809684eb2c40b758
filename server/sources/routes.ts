import fastifyMultipart from '@fastify/multipart';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { deletedResponse, idText } from '../../src/schemas/common';
import { passage, passagePage, passagePageQuery, source, sourceFromUrl, sourceList } from '../../src/schemas/sources';
import { requireUser } from '../auth/guard';
import { HttpError, parseWith } from '../http/errors';
import type { ZodTypeProvider } from '../http/routeSchema';
import { perUserLimit } from '../http/userRateLimit';
import { addSource } from './ingest';
import { ACCEPTED_EXTENSIONS } from './read';
import { createSourceReading } from './reading';
import { deleteSource, listPassages, listSources, ownedPassage, ownedSource, SOURCE_NOT_FOUND } from './store';

// /sources: add (a file, or a web page's address), list, read the passages of, and remove a person's sources.

const sourceParams = z.object({ id: idText() });
const passageParams = z.object({ id: idText(), passageId: idText() });
const uploadForm = z.object({
  file: z.string().meta({ contentMediaType: 'application/octet-stream', description: ACCEPTED_EXTENSIONS.join(', ') }),
});

/** The one file of a multipart body, held in memory up to the cap (a larger one is a 413, read to its end). */
async function receiveFile(req: FastifyRequest, maxBytes: number): Promise<{ fileName: string; bytes: Buffer }> {
  let found: { fileName: string; bytes: Buffer } | null = null;
  let truncated = false;
  try {
    for await (const part of req.parts({ limits: { fileSize: maxBytes, files: 1, fields: 5 } })) {
      if (part.type === 'field') continue;
      if (part.fieldname !== 'file' || found) {
        part.file.resume();
        continue;
      }
      const chunks: Buffer[] = [];
      for await (const chunk of part.file) chunks.push(chunk as Buffer);
      truncated = part.file.truncated;
      found = { fileName: (part.filename || 'document.txt').slice(0, 200), bytes: Buffer.concat(chunks) };
    }
  } catch (e) {
    const code = (e as { code?: string }).code ?? '';
    if (code === 'FST_REQ_FILE_TOO_LARGE') truncated = true;
    else if (code === 'FST_FILES_LIMIT' || code === 'FST_PARTS_LIMIT')
      throw new HttpError(413, 'Send one file at a time, in the field named file.');
    else throw new HttpError(400, `The upload could not be read: ${(e as Error).message}`);
  }
  if (truncated)
    throw new HttpError(
      413,
      `The file is larger than ${Math.round(maxBytes / 1024 / 1024)} MB, the most a source may be (SOURCE_MAX_BYTES).`,
    );
  if (!found) throw new HttpError(422, 'Send the document in the field named file.');
  return found;
}

export async function sourceRoutes(fastify: FastifyInstance) {
  const cfg = fastify.ctx.config.sources;
  // Only these routes take multipart bodies; the throw on an oversized file is what tells it from a short one.
  await fastify.register(fastifyMultipart, { limits: { fileSize: cfg.maxBytes, files: 1, fields: 5 } });
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const { ctx } = app;
  const tags = ['Sources'];
  app.addHook('onRequest', requireUser(ctx));
  const addLimited = perUserLimit(app, cfg.uploadRateLimit, 'sources added');
  const reading = createSourceReading(ctx, app.log);
  ctx.sourceReading = reading;
  app.addHook('onClose', () => reading.close());

  app.post(
    '/sources',
    {
      ...addLimited,
      schema: {
        tags,
        summary: 'Add a source: a file, or a web page by its address',
        description:
          'multipart/form-data with the field `file` (PDF, Word .docx, Markdown, text or HTML), or JSON `{ "url" }` of a web page the server fetches. The document is read (in a reader thread, as a job) before the answer: one that cannot be read is refused with a sentence and nothing is kept.',
        multipart: uploadForm,
        response: { 201: source },
        errors: {
          409: 'Too many sources (SOURCES_PER_USER)',
          413: 'The file, its pages or passages, or your sources in all are over a cap',
          415: 'Not a kind of document this server reads, or its content is of another kind than its name',
          422: 'The document cannot be read (encrypted, no text layer, damaged, a page that failed, past SOURCE_READ_TIMEOUT_MS)',
          503: 'The reader threads have too many files waiting, or the reader failed; add it again',
        },
      },
    },
    async (req, reply) => {
      const input = req.isMultipart()
        ? await receiveFile(req, cfg.maxBytes)
        : { url: parseWith(sourceFromUrl, req.body ?? {}).url };
      const created = await addSource(ctx.db, cfg, reading.queue, req.userId, input);
      reply.status(201);
      return created;
    },
  );

  app.get('/sources', { schema: { tags, summary: 'Your sources', response: { 200: sourceList } } }, (req) =>
    listSources(ctx.db, req.userId),
  );

  app.get(
    '/sources/:id',
    {
      schema: {
        tags,
        summary: 'One source',
        params: sourceParams,
        response: { 200: source },
        errors: { 404: SOURCE_NOT_FOUND },
      },
    },
    (req) => ownedSource(ctx.db, req.userId, req.params.id),
  );

  app.delete(
    '/sources/:id',
    {
      schema: {
        tags,
        summary: 'Remove a source and its passages',
        params: sourceParams,
        response: { 200: deletedResponse },
        errors: { 404: SOURCE_NOT_FOUND },
      },
    },
    async (req) => {
      await deleteSource(ctx.db, req.userId, req.params.id);
      return { success: true, id: req.params.id };
    },
  );

  app.get(
    '/sources/:id/passages',
    {
      schema: {
        tags,
        summary: "A source's passages, in document order, a page at a time",
        params: sourceParams,
        querystring: passagePageQuery,
        response: { 200: passagePage },
        errors: { 404: SOURCE_NOT_FOUND },
      },
    },
    (req) => listPassages(ctx.db, req.userId, req.params.id, req.query.offset, req.query.limit),
  );

  app.get(
    '/sources/:id/passages/:passageId',
    {
      schema: {
        tags,
        summary: 'One passage',
        params: passageParams,
        response: { 200: passage },
        errors: { 404: 'Passage not found' },
      },
    },
    (req) => ownedPassage(ctx.db, req.userId, req.params.id, req.params.passageId),
  );
}
