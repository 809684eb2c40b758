import { randomUUID } from 'node:crypto';
import type { EvalRun, EvalRunSettings } from '../../src/schemas/eval';
import type { AppContext } from '../context';
import { HttpError } from '../http/errors';
import { makeCaller, userResolver } from './caller';
import { plannedMethods, plannedVariants, runEvaluation } from './runner';
import {
  countRuns,
  dbRunStore,
  deleteRun,
  insertRun,
  listRunRows,
  runItems,
  runRow,
  runSums,
  setBudget,
  setStatus,
  type RunSummaryRow,
} from './store';
import { etaSeconds, runResults, withEta, type MethodSums } from './summary';
import { buildTasks, TaskSetError } from './tasks';
import type { EvalVariant } from '../../src/schemas/eval';
import { subsystemPlugin } from '../http/subsystem';

// Evaluation runs as server jobs: created (tasks built and stored), run in this process with an abort per run,
// stopped and resumed, and read back as views with their figures. A run's progress is read by polling its view.

export interface EvalJob {
  userId: string;
  abort: AbortController;
  done: Promise<void>;
}

declare module '../context' {
  interface AppContext {
    /** The evaluation runs this process is running, by run id. */
    evalJobs: Map<string, EvalJob>;
  }
}

/** The evaluation jobs: made as the server starts; the server's close ends every run (answered questions kept). */
export const evalPlugin = subsystemPlugin('eval', 'evalJobs', {
  create: () => new Map<string, EvalJob>(),
  close: (_jobs, app) => stopAllRuns(app.ctx),
});
const jobs = (ctx: AppContext) => ctx.evalJobs;

/** Resolves when the run's job (if any) has ended; for tests and shutdown. */
export const jobEnded = (ctx: AppContext, runId: string) => jobs(ctx).get(runId)?.done ?? Promise.resolve();

function taskView(spec: EvalRunSettings['tasks'], label: string) {
  return spec.kind === 'arithmetic' ? { kind: spec.kind, label, seed: spec.seed } : { kind: spec.kind, label };
}

export async function createRun(ctx: AppContext, userId: string, body: EvalRunSettings): Promise<EvalRun> {
  const { config } = ctx;
  if ((await countRuns(ctx.db, userId)) >= config.evalMaxRuns) {
    throw new HttpError(
      409,
      `You have ${config.evalMaxRuns} stored evaluations, the most this server keeps; delete one to start another`,
    );
  }
  refuseIfBusy(ctx);
  let built;
  try {
    built = buildTasks(body.tasks, config.evalMaxQuestions);
  } catch (e) {
    if (e instanceof TaskSetError) throw new HttpError(422, `The task set cannot be used: ${e.message}`);
    throw e;
  }
  const settings = { ...body, single: body.single_model ?? body.models[0], judge: body.judge_model ?? body.models[0] };
  // The file's text is stored as its questions; the settings keep only its name.
  if (settings.tasks.kind === 'file') settings.tasks = { ...settings.tasks, jsonl: '' };
  // Every model is resolved before anything is stored, so a connection that is gone is a clear 422 here.
  await resolveAll(ctx, userId, settings);
  const id = randomUUID();
  const name = body.name?.trim() || `${built.label} · ${plannedMethods(settings).length} methods`;
  await insertRun(ctx.db, {
    id,
    user_id: userId,
    name,
    status: 'running',
    detail: null,
    settings,
    task_view: taskView(body.tasks, built.label),
    items: built.items,
  });
  start(ctx, userId, id);
  return getRun(ctx, userId, id);
}

async function resolveAll(ctx: AppContext, userId: string, s: { models: string[]; single: string; judge: string }) {
  try {
    await makeCaller(userResolver(ctx, userId), [...s.models, s.single, s.judge], {
      maxTokens: 1,
      temperature: 0,
      signal: new AbortController().signal,
    });
  } catch (e) {
    throw new HttpError(422, (e as Error).message);
  }
}

function refuseIfBusy(ctx: AppContext) {
  if (jobs(ctx).size >= ctx.config.evalMaxConcurrentRuns) {
    throw new HttpError(
      429,
      `${ctx.config.evalMaxConcurrentRuns} evaluations are running on this server, the most it runs at once; ` +
        'try again when one ends',
    );
  }
}

function start(ctx: AppContext, userId: string, runId: string) {
  const abort = new AbortController();
  const job: EvalJob = { userId, abort, done: Promise.resolve() };
  jobs(ctx).set(runId, job);
  job.done = (async () => {
    let end: { status: string; detail: string | null };
    try {
      const row = await runRow(ctx.db, userId, runId);
      if (!row) return;
      const items = await runItems(ctx.db, runId);
      const s = row.settings;
      const caller = await makeCaller(userResolver(ctx, userId), [...s.models, s.single, s.judge], {
        maxTokens: s.max_tokens_per_call,
        temperature: s.temperature,
        signal: abort.signal,
        tools: ctx.config.tools,
      });
      end = await runEvaluation(
        { items, settings: s, k: row.k },
        { caller, store: dbRunStore(ctx.db, runId), signal: abort.signal, parallel: ctx.config.evalParallelQuestions },
      );
    } catch (e) {
      end = {
        status: 'failed',
        detail: `The evaluation could not go on: ${(e as Error).message}. Resume to try again.`,
      };
    }
    jobs(ctx).delete(runId);
    await setStatus(ctx.db, runId, end.status, end.detail).catch(() => {});
  })();
}

/** Ends every run of this process (server shutdown); their answered questions are kept. */
export async function stopAllRuns(ctx: AppContext) {
  const all = [...jobs(ctx).values()];
  for (const j of all) j.abort.abort();
  await Promise.all(all.map((j) => j.done));
}

export async function stopRun(ctx: AppContext, userId: string, id: string): Promise<EvalRun> {
  const row = await runRow(ctx.db, userId, id);
  if (!row) throw new HttpError(404, 'No such evaluation');
  const job = jobs(ctx).get(id);
  if (job) {
    await setStatus(ctx.db, id, 'stopping', null);
    job.abort.abort();
    await job.done;
  }
  return getRun(ctx, userId, id);
}

export async function resumeRun(ctx: AppContext, userId: string, id: string, budget?: number | null): Promise<EvalRun> {
  const row = await runRow(ctx.db, userId, id);
  if (!row) throw new HttpError(404, 'No such evaluation');
  if (jobs(ctx).has(id)) throw new HttpError(409, 'This evaluation is running already');
  if (row.status === 'done') throw new HttpError(409, 'This evaluation is complete; there is nothing to resume');
  refuseIfBusy(ctx);
  if (budget !== undefined) await setBudget(ctx.db, id, budget);
  await setStatus(ctx.db, id, 'running', null);
  start(ctx, userId, id);
  return getRun(ctx, userId, id);
}

export async function deleteRunOf(ctx: AppContext, userId: string, id: string) {
  const job = jobs(ctx).get(id);
  if (job && job.userId === userId) {
    job.abort.abort();
    await job.done;
  }
  await deleteRun(ctx.db, userId, id);
}

function view(ctx: AppContext, row: RunSummaryRow, sums: Map<EvalVariant, MethodSums> | undefined): EvalRun {
  const s = row.settings;
  const methods = plannedMethods(s);
  const live = jobs(ctx).has(row.id);
  const results = withEta(
    runResults(plannedVariants(s), row.question_count, sums ?? new Map(), row.k),
    ctx.config.evalParallelQuestions,
    live,
  );
  // A run marked running that no job runs was cut short by a restart: its answers are kept, it can be resumed.
  const orphan = !live && (row.status === 'running' || row.status === 'stopping');
  return {
    id: row.id,
    name: row.name,
    created_at: new Date(row.created_at).toISOString(),
    status: orphan ? 'stopped' : (row.status as EvalRun['status']),
    detail: orphan ? 'The server stopped during this evaluation; resume to answer the remaining questions' : row.detail,
    tasks: row.task_view,
    question_count: row.question_count,
    models: s.models,
    single_model: s.single,
    judge_model: s.judge,
    methods,
    ...(s.with_tools?.length ? { with_tools: s.with_tools } : {}),
    rounds: s.rounds,
    equal_tokens: s.equal_tokens,
    budget_tokens: s.budget_tokens ?? null,
    tokens_used: results.reduce((a, r) => a + r.tokens, 0),
    eta_seconds: live ? etaSeconds(results, ctx.config.evalParallelQuestions) : null,
    results,
  };
}

export async function listRuns(ctx: AppContext, userId: string): Promise<EvalRun[]> {
  const rows = await listRunRows(ctx.db, userId);
  const sums = await runSums(
    ctx.db,
    rows.map((r) => r.id),
  );
  return rows.map((r) => view(ctx, r, sums.get(r.id)));
}

export async function getRun(ctx: AppContext, userId: string, id: string): Promise<EvalRun> {
  const row = await runRow(ctx.db, userId, id);
  if (!row) throw new HttpError(404, 'No such evaluation');
  return view(ctx, row, (await runSums(ctx.db, [id])).get(id));
}
