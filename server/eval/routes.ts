import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { deletedResponse } from '../../src/schemas/common';
import { evalFileCheck, evalRun, evalRunCreate, evalRunList } from '../../src/schemas/eval';
import { requireUser } from '../auth/guard';
import type { ZodTypeProvider } from '../http/routeSchema';
import { createRun, deleteRunOf, getRun, listRuns, resumeRun, stopRun } from './service';
import { parseTaskFile } from './tasks';

// Evaluations (README 'Does the panel help?'): start a run, read its progress and figures, stop, resume, delete,
// and check a task file before starting. Every route is scoped to the signed-in user.

const idParams = z.object({ id: z.string().min(1).max(100) });
const tags = ['Evaluations'];
const NOT_FOUND = { 404: 'No such evaluation' };

export async function evalRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const { ctx } = app;
  app.addHook('onRequest', requireUser(ctx));

  app.get(
    '/eval/runs',
    {
      schema: {
        tags,
        summary: 'Your evaluations, newest first, each with its progress and figures',
        response: { 200: evalRunList },
      },
    },
    async (req) => ({ runs: await listRuns(ctx, req.userId) }),
  );

  app.post(
    '/eval/runs',
    {
      schema: {
        tags,
        summary: 'Start an evaluation: a task set, the models, the methods',
        description:
          'Runs in the background; poll GET /eval/runs/{id} for its progress. ' +
          'A bad task file answers 422 naming each bad line.',
        body: evalRunCreate,
        response: { 201: evalRun },
        errors: { 409: 'Too many stored evaluations', 429: 'Too many evaluations running on this server' },
      },
    },
    async (req, reply) => reply.status(201).send(await createRun(ctx, req.userId, req.body)),
  );

  app.post(
    '/eval/tasks/check',
    {
      schema: {
        tags,
        summary: 'Check a JSONL task file: how many questions, and what is wrong with each bad line',
        body: z.object({ jsonl: z.string().max(1_500_000, 'The file is larger than 1.5 MB') }),
        response: { 200: evalFileCheck },
      },
    },
    async (req) => {
      const { items, errors } = parseTaskFile(req.body.jsonl, ctx.config.evalMaxQuestions);
      return { ok: errors.length === 0, count: items.length, errors: errors.slice(0, 100) };
    },
  );

  app.get(
    '/eval/runs/:id',
    {
      schema: {
        tags,
        summary: 'One evaluation: progress per method and its figures',
        params: idParams,
        response: { 200: evalRun },
        errors: NOT_FOUND,
      },
    },
    async (req) => getRun(ctx, req.userId, req.params.id),
  );

  app.post(
    '/eval/runs/:id/stop',
    {
      schema: {
        tags,
        summary: 'Stop an evaluation; its answered questions are kept',
        params: idParams,
        response: { 200: evalRun },
        errors: NOT_FOUND,
      },
    },
    async (req) => stopRun(ctx, req.userId, req.params.id),
  );

  app.post(
    '/eval/runs/:id/resume',
    {
      schema: {
        tags,
        summary: 'Resume a stopped evaluation: only the questions not yet answered are asked',
        params: idParams,
        body: z.object({ budget_tokens: z.number().int().min(1).nullable().optional() }).optional(),
        response: { 200: evalRun },
        errors: { ...NOT_FOUND, 409: 'Running already, or complete', 429: 'Too many evaluations running' },
      },
    },
    async (req) => resumeRun(ctx, req.userId, req.params.id, req.body?.budget_tokens),
  );

  app.delete(
    '/eval/runs/:id',
    {
      schema: {
        tags,
        summary: 'Delete an evaluation and its answers',
        params: idParams,
        response: { 200: deletedResponse },
        errors: NOT_FOUND,
      },
    },
    async (req) => {
      await getRun(ctx, req.userId, req.params.id);
      await deleteRunOf(ctx, req.userId, req.params.id);
      return { success: true, id: req.params.id };
    },
  );
}
