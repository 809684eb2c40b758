import { randomUUID } from 'node:crypto';
import type { ModelJob } from '../../src/schemas/modelConnections';
import type { AppContext } from '../context';
import { HttpError } from '../http/errors';
import { readCapped } from '../providers/boundedBody';
import { lines } from '../providers/llm/stream';
import { maskSecrets } from '../providers/mask';
import { blockedCause } from './guardedFetch';
import { forgetListing, userFetch, type Target } from './service';

// An Ollama pull is a server job (docs/models.md 'Pulling a model'): the server reads Ollama's streamed
// /api/pull progress, keeps the job's state and sends it to the owner's live-update sockets as `model_job` frames
// (at most one per PROGRESS_FRAME_MS, and always on a change of status), so a second tab sees it and a reloaded
// page finds it with GET /model-jobs. A finished job is kept for FINISHED_JOB_KEEP_MS, then forgotten.
// A pull ends when Ollama says nothing for PULL_IDLE_TIMEOUT_MS or it runs past PULL_TIMEOUT_MS; at most
// MAX_PULLS_PER_USER run for one user and MAX_PULLS on the server.

const PROGRESS_FRAME_MS = 250;
const FINISHED_JOB_KEEP_MS = 10 * 60_000;

export interface PullEntry {
  userId: string;
  job: ModelJob;
  abort: AbortController;
  sentAt: number;
}

declare module '../context' {
  interface AppContext {
    /** The model pulls this server runs or finished lately, by job id. */
    modelJobs: Map<string, PullEntry>;
  }
}

export const createPullJobs = (): Map<string, PullEntry> => new Map();
const jobsOf = (ctx: AppContext) => ctx.modelJobs;

export const listJobs = (ctx: AppContext, userId: string): ModelJob[] =>
  [...jobsOf(ctx).values()].filter((e) => e.userId === userId).map((e) => e.job);

export const findJob = (ctx: AppContext, userId: string, id: string) => {
  const e = jobsOf(ctx).get(id);
  return e && e.userId === userId ? e : null;
};

/** Starts a pull, or returns the one already running for the same model on the same connection. */
export function startPull(ctx: AppContext, userId: string, target: Target, model: string): ModelJob {
  const jobs = jobsOf(ctx);
  for (const e of jobs.values()) {
    if (e.userId === userId && e.job.connection_id === target.id && e.job.model === model && e.job.status === 'running')
      return e.job;
  }
  const running = [...jobs.values()].filter((e) => e.job.status === 'running');
  const { maxPullsPerUser, maxPulls } = ctx.config;
  if (running.filter((e) => e.userId === userId).length >= maxPullsPerUser) {
    throw new HttpError(
      429,
      `You have ${maxPullsPerUser} pull${maxPullsPerUser === 1 ? '' : 's'} running, as many as this server allows at once (MAX_PULLS_PER_USER); wait for one to finish`,
    );
  }
  if (running.length >= maxPulls)
    throw new HttpError(
      429,
      `This server is running ${maxPulls} pulls, as many as it allows at once (MAX_PULLS); try again when one has finished`,
    );
  const entry: PullEntry = {
    userId,
    abort: new AbortController(),
    sentAt: 0,
    job: {
      id: randomUUID(),
      connection_id: target.id,
      connection_name: target.name,
      model,
      status: 'running',
      phase: 'starting',
      completed: 0,
      total: 0,
      error: null,
      started_at: new Date().toISOString(),
    },
  };
  jobs.set(entry.job.id, entry);
  tell(ctx, entry, true);
  void run(ctx, entry, target);
  return entry.job;
}

/** The server is closing: its running pulls are aborted. */
export function stopPulls(ctx: AppContext) {
  for (const e of jobsOf(ctx).values()) if (e.job.status === 'running') e.abort.abort();
}

export function cancelJob(ctx: AppContext, userId: string, id: string): ModelJob | null {
  const e = findJob(ctx, userId, id);
  if (!e) return null;
  if (e.job.status === 'running') e.abort.abort();
  return e.job;
}

function tell(ctx: AppContext, e: PullEntry, always: boolean) {
  const now = Date.now();
  if (!always && now - e.sentAt < PROGRESS_FRAME_MS) return;
  e.sentAt = now;
  ctx.hub.broadcast(e.userId, { type: 'model_job', job: e.job });
}

function finish(ctx: AppContext, e: PullEntry, status: ModelJob['status'], error: string | null) {
  if (e.job.status !== 'running') return;
  e.job = {
    ...e.job,
    status,
    error: error === null ? null : maskSecrets(error),
    ...(status === 'done' ? { completed: Math.max(e.job.total, e.job.completed), phase: 'success' } : {}),
  };
  tell(ctx, e, true);
  if (status === 'done') {
    forgetListing(ctx, e.job.connection_id);
    ctx.hub.broadcast(e.userId, { type: 'model_connections_changed' });
  }
  setTimeout(() => jobsOf(ctx).delete(e.job.id), FINISHED_JOB_KEEP_MS).unref();
}

async function run(ctx: AppContext, e: PullEntry, target: Target) {
  const host = target.baseUrl.trim().replace(/\/+$/, '');
  const send = target.readOnly ? fetch : userFetch(ctx);
  // Layers are pulled one after another, each with its own total: the job's figures are their sums.
  const layers = new Map<string, { total: number; completed: number }>();
  const { pullIdleTimeoutMs, pullTimeoutMs, llmMaxLineBytes } = ctx.config;
  let timedOut: string | null = null;
  const stopFor = (why: string) => () => {
    timedOut = why;
    e.abort.abort();
  };
  const total = setTimeout(
    stopFor(`the pull ran longer than ${minutes(pullTimeoutMs)} (PULL_TIMEOUT_MS)`),
    pullTimeoutMs,
  );
  let idle = setTimeout(
    stopFor(`Ollama sent nothing for ${minutes(pullIdleTimeoutMs)} (PULL_IDLE_TIMEOUT_MS)`),
    pullIdleTimeoutMs,
  );
  const heard = () => {
    clearTimeout(idle);
    idle = setTimeout(
      stopFor(`Ollama sent nothing for ${minutes(pullIdleTimeoutMs)} (PULL_IDLE_TIMEOUT_MS)`),
      pullIdleTimeoutMs,
    );
  };
  try {
    const res = await send(`${host}/api/pull`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      // `name` is what Ollama before 0.4 read; newer ones read `model`.
      body: JSON.stringify({ model: e.job.model, name: e.job.model, stream: true }),
      signal: e.abort.signal,
      redirect: 'manual',
    });
    heard();
    if (!res.ok || !res.body) return finish(ctx, e, 'failed', `Ollama answered ${res.status}${await errorWords(res)}`);
    for await (const line of lines(res.body, llmMaxLineBytes)) {
      heard();
      if (!line.trim()) continue;
      let chunk: { status?: string; digest?: string; total?: number; completed?: number; error?: string };
      try {
        chunk = JSON.parse(line);
      } catch {
        return finish(ctx, e, 'failed', `Ollama sent an unreadable progress line: ${line.slice(0, 80)}`);
      }
      if (chunk.error)
        return finish(ctx, e, 'failed', `Ollama could not pull ${e.job.model}: ${String(chunk.error).slice(0, 500)}`);
      if (chunk.digest && typeof chunk.total === 'number') {
        // The layer count is Ollama's, bounded as any list another server sends.
        if (layers.size < 1_000 || layers.has(chunk.digest))
          layers.set(chunk.digest, { total: chunk.total, completed: chunk.completed ?? 0 });
      }
      const sum = [...layers.values()].reduce(
        (a, l) => ({ total: a.total + l.total, completed: a.completed + Math.min(l.completed, l.total) }),
        { total: 0, completed: 0 },
      );
      const phase = String(chunk.status ?? e.job.phase).slice(0, 200);
      const phaseChanged = phase !== e.job.phase;
      e.job = { ...e.job, phase, ...sum };
      if (chunk.status === 'success') return finish(ctx, e, 'done', null);
      tell(ctx, e, phaseChanged);
    }
    finish(ctx, e, 'failed', 'Ollama ended the pull before it said success');
  } catch (err) {
    if (timedOut) return finish(ctx, e, 'failed', `Ollama could not pull ${e.job.model}: ${timedOut}`);
    if (e.abort.signal.aborted) return finish(ctx, e, 'cancelled', null);
    const blocked = blockedCause(err);
    if (blocked) return finish(ctx, e, 'failed', `This connection may not be used: ${blocked.message}`);
    if ((err as Error).name === 'LineTooLongError')
      return finish(ctx, e, 'failed', `Ollama sent ${(err as Error).message} (LLM_MAX_LINE_BYTES)`);
    const code = (err as { cause?: { code?: string } }).cause?.code;
    finish(ctx, e, 'failed', `Ollama at ${new URL(host).host} is not reachable${code ? ` (${code})` : ''}`);
  } finally {
    clearTimeout(total);
    clearTimeout(idle);
  }
}

const minutes = (ms: number) =>
  ms >= 60_000 ? `${Math.round(ms / 6_000) / 10} min` : `${Math.round(ms / 100) / 10} s`;

/** The reason in an error answer of Ollama, read within a bound. */
async function errorWords(res: Response): Promise<string> {
  const text = await readCapped(res, 64 * 1024).catch(() => '');
  let why = text.trim().slice(0, 200);
  try {
    why = String((JSON.parse(text) as { error?: string }).error ?? why).slice(0, 500);
  } catch {
    /* plain text */
  }
  return why ? `: ${why}` : '';
}

/** Removes a model from an Ollama server (DELETE /api/delete). */
export async function deleteOllamaModel(ctx: AppContext, target: Target, model: string): Promise<void> {
  const host = target.baseUrl.trim().replace(/\/+$/, '');
  let res: Response;
  try {
    res = await (target.readOnly ? fetch : userFetch(ctx))(`${host}/api/delete`, {
      method: 'DELETE',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ model, name: model }),
      signal: AbortSignal.timeout(15_000),
      redirect: 'manual',
    });
  } catch (err) {
    const blocked = blockedCause(err);
    if (blocked) throw new Error(`This connection may not be used: ${blocked.message}`);
    const code = (err as { cause?: { code?: string } }).cause?.code;
    throw new Error(`Ollama at ${new URL(host).host} is not reachable${code ? ` (${code})` : ''}`);
  }
  if (!res.ok)
    throw new Error(
      res.status === 404
        ? `Ollama has no model named ${model}`
        : maskSecrets(`Ollama answered ${res.status}${await errorWords(res)}`),
    );
  await res.body?.cancel().catch(() => undefined);
  forgetListing(ctx, target.id);
}
