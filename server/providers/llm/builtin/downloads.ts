import { createHash } from 'node:crypto';
import { createReadStream, createWriteStream, existsSync } from 'node:fs';
import { mkdir, readFile, readdir, rename, rm, stat, statfs, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { ModelDownload } from '../../../../src/schemas/builtinModels';
import { blockedCause, guardedFetch, type FetchLike } from '../../../models/guardedFetch';
import { isGguf, PARTIAL_SUFFIX, safeModelFileName } from './modelFiles';
import { assertFetchable } from './publicAddress';
import { Refused } from './refused';

// Downloads of GGUF files into the models directory, as server jobs. Bytes go to '<file>.part' beside a small
// '<file>.part.json' (url, sha256), so an interrupted download — a dropped connection, a restart — resumes
// where it stopped with an HTTP Range request. When complete it is checked (GGUF magic, SHA-256 when known)
// and renamed into place; only then does it appear as a model. Progress is told through `onProgress`
// (the routes send it on /ws/updates), at most every `progressEveryMs` while running, always at the end.
//
// Every download has an owner (the user who started it, kept in the sidecar too): lists, cancels and progress
// go to the owner only, unless the caller may see every download (`all`, for the operator). What a user can make
// the server write is bounded: downloads at once per user and in all, bytes of one file, bytes of the whole models
// directory (partial files included), free disk left; the first bytes must be the GGUF magic. A download that
// fails for good has its partial file removed; one cut off by the network keeps it (counted in the total) so the
// same URL resumes it.

export interface DownloadsOptions {
  dir: string;
  allowPrivate: boolean;
  maxBytes: number;
  onProgress(download: ModelDownload, userId: string | null): void;
  progressEveryMs?: number;
  /** Running downloads at once, per user and in all (BUILTIN_MAX_DOWNLOADS_PER_USER, BUILTIN_MAX_DOWNLOADS). */
  maxPerUser?: number;
  maxRunning?: number;
  /** Bytes of every file in the models directory together, partial ones included (BUILTIN_MODELS_MAX_GB). */
  maxTotalBytes?: number;
  /** Free disk a download leaves (BUILTIN_MIN_FREE_DISK_GB). */
  minFreeBytes?: number;
  /** Free bytes on the models directory's disk; tests replace it. */
  freeBytes?: (dir: string) => Promise<number>;
}

/** Who asks: their own downloads, or every download when `all` (the operator). */
export interface Viewer {
  userId: string | null;
  all?: boolean;
}

interface Job {
  download: ModelDownload;
  userId: string | null;
  abort: AbortController;
  done: Promise<void>;
}

interface Sidecar {
  url: string;
  sha256: string | null;
  total: number | null;
  owner: string | null;
}

/** A failure that a retry of the same URL would not fix: its partial file is removed. */
class Final extends Error {}

const systemFreeBytes = async (dir: string) => {
  const s = await statfs(dir);
  return s.bavail * s.bsize;
};
/** How often (in bytes written) free disk and the directory's total are looked at again. */
const DISK_CHECK_EVERY = 16 * 1024 * 1024;

const MAX_REDIRECTS = 5;

export class ModelDownloads {
  private jobs = new Map<string, Job>();
  private readonly fetch: FetchLike;

  constructor(private readonly opts: DownloadsOptions) {
    this.fetch = guardedFetch({ allowPrivate: opts.allowPrivate, setting: 'BUILTIN_DOWNLOAD_ALLOW_PRIVATE' });
  }

  /** Who started the download of `file` (running, finished or left interrupted on disk); undefined when none. */
  async ownerOf(file: string): Promise<string | null | undefined> {
    if (!safeModelFileName(file)) return undefined;
    const job = this.jobs.get(file);
    if (job) return job.userId;
    const side = await this.readSidecar(file);
    return side ? side.owner : undefined;
  }

  /** The viewer's running and finished downloads of this process, and interrupted ones left on disk, newest state each. */
  async list(viewer: Viewer): Promise<ModelDownload[]> {
    const mine = (owner: string | null) => viewer.all || (owner !== null && owner === viewer.userId);
    const out = new Map<string, ModelDownload>();
    for (const name of await readdir(this.opts.dir).catch(() => [] as string[])) {
      if (!name.endsWith(`${PARTIAL_SUFFIX}.json`)) continue;
      const file = name.slice(0, -`${PARTIAL_SUFFIX}.json`.length);
      if (this.jobs.has(file) || !safeModelFileName(file)) continue;
      const side = await this.readSidecar(file);
      if (!side || !mine(side.owner)) continue;
      const received = await stat(this.partPath(file)).then(
        (s) => s.size,
        () => 0,
      );
      out.set(file, {
        file,
        url: side.url,
        received,
        total: side.total,
        state: 'interrupted',
        error: null,
        sha256: side.sha256,
      });
    }
    for (const [file, job] of this.jobs) if (mine(job.userId)) out.set(file, { ...job.download });
    return [...out.values()].sort((a, b) => a.file.localeCompare(b.file));
  }

  /** Starts (or resumes) a download; refuses bad names, clashes, limits and refused addresses at once. */
  async start(req: { url: string; file?: string; sha256?: string }, userId: string | null): Promise<ModelDownload> {
    let url: URL;
    try {
      url = new URL(req.url);
    } catch {
      throw new Refused('The URL is not valid', 422);
    }
    let fromUrl = '';
    try {
      fromUrl = decodeURIComponent(url.pathname.split('/').pop() ?? '');
    } catch {
      if (!req.file)
        throw new Refused(
          `The URL's file name (${url.pathname.split('/').pop()}) is not valid percent-encoding; give the file name to save as`,
          422,
        );
    }
    const file = req.file || fromUrl;
    if (!safeModelFileName(file)) {
      throw new Refused(
        `"${file || url.pathname}" is not a usable model file name: it must end in .gguf and use only letters, digits, '.', '_', '+' and '-'`,
        422,
      );
    }
    const running = this.jobs.get(file);
    if (running && (running.download.state === 'running' || running.download.state === 'verifying'))
      throw new Refused(`${file} is already downloading`, 409);
    if (existsSync(path.join(this.opts.dir, file)))
      throw new Refused(`${file} is already in the models directory`, 409);
    const previous = await this.readSidecar(file);
    // An interrupted download is resumed (or replaced) by the one who started it only.
    if (previous && previous.owner !== null && previous.owner !== userId)
      throw new Refused(`${file} is being downloaded by another user`, 409);
    this.assertRoomToStart(userId);
    try {
      await assertFetchable(url, this.opts.allowPrivate);
    } catch (e) {
      throw new Refused((e as Error).message, 422);
    }
    await mkdir(this.opts.dir, { recursive: true });
    await this.assertDiskRoom(0);
    // A partial file of another URL is not this file's beginning.
    if (previous && previous.url !== url.href) await this.removePartial(file);
    const sha256 = req.sha256?.toLowerCase() ?? (previous?.url === url.href ? previous.sha256 : null);
    await writeFile(
      this.sidecarPath(file),
      JSON.stringify({
        url: url.href,
        sha256,
        total: previous?.url === url.href ? previous.total : null,
        owner: userId,
      } satisfies Sidecar),
    );

    const download: ModelDownload = {
      file,
      url: url.href,
      received: 0,
      total: null,
      state: 'running',
      error: null,
      sha256,
    };
    const abort = new AbortController();
    const job: Job = { download, userId, abort, done: Promise.resolve() };
    this.jobs.set(file, job);
    job.done = this.run(job, url).catch(() => undefined);
    return { ...download };
  }

  /**
   * Stops a download and removes what it wrote. Also clears an interrupted one. False when there is none the
   * viewer may see (a name that is not a safe model file name never reaches the disk).
   */
  async cancel(file: string, viewer: Viewer): Promise<boolean> {
    if (!safeModelFileName(file)) return false;
    const owner = await this.ownerOf(file);
    if (owner === undefined || !(viewer.all || (owner !== null && owner === viewer.userId))) return false;
    const job = this.jobs.get(file);
    const hadPartial = existsSync(this.sidecarPath(file)) || existsSync(this.partPath(file));
    if (job && (job.download.state === 'running' || job.download.state === 'verifying')) {
      job.abort.abort();
      await job.done;
    }
    if (!job && !hadPartial) return false;
    await this.removePartial(file);
    if (job) this.jobs.delete(file);
    return true;
  }

  /** Waits for a download to end (tests, shutdown). */
  async settled(file: string): Promise<ModelDownload | null> {
    const job = this.jobs.get(file);
    if (!job) return null;
    await job.done;
    return { ...job.download };
  }

  /** Stops every running download, keeping their partial files for a resume. */
  async close() {
    for (const job of this.jobs.values()) job.abort.abort(new Error('the server is shutting down'));
    await Promise.all([...this.jobs.values()].map((j) => j.done));
  }

  private async run(job: Job, url: URL) {
    const { download } = job;
    const part = this.partPath(download.file);
    let lastSent = 0;
    const tell = (force = false) => {
      const now = Date.now();
      if (!force && now - lastSent < (this.opts.progressEveryMs ?? 250)) return;
      lastSent = now;
      this.opts.onProgress({ ...download }, job.userId);
    };
    try {
      const have = await stat(part).then(
        (s) => s.size,
        () => 0,
      );
      const res = await this.fetchFollowing(url, have, job.abort.signal);
      let append = false;
      if (res.status === 206) {
        const range = /^bytes (\d+)-\d+\/(\d+|\*)$/.exec(res.headers.get('content-range') ?? '');
        append = !!range && Number(range[1]) === have;
        download.total = range && range[2] !== '*' ? Number(range[2]) : null;
        if (!append) throw new Error('the server answered a different byte range than asked');
      } else if (res.status === 416 && have > 0) {
        // Asked past the end: the partial file is already whole (or the file shrank). Verify what is there.
        await res.body?.cancel();
        download.total = have;
        append = true;
      } else if (res.ok) {
        const len = Number(res.headers.get('content-length'));
        download.total = Number.isFinite(len) && len > 0 ? len : null;
      } else {
        await res.body?.cancel();
        throw new Final(`the server answered ${res.status}${res.statusText ? ` ${res.statusText}` : ''}`);
      }
      if (download.total !== null && download.total > this.opts.maxBytes) {
        await res.body?.cancel();
        throw new Final(
          `the file is ${gb(download.total)}, more than this server allows (${gb(this.opts.maxBytes)}, BUILTIN_MAX_MODEL_GB)`,
        );
      }
      download.received = append ? have : 0;
      if (download.total !== null) {
        try {
          await this.assertDiskRoom(download.total - download.received);
        } catch (e) {
          await res.body?.cancel();
          throw new Final((e as Error).message);
        }
      }
      await this.writeSidecarTotal(download, job.userId);
      tell(true);

      if (res.status !== 416 && res.body) {
        let head = append ? null : Buffer.alloc(0);
        let sinceDiskCheck = 0;
        const counter = async function* (this: ModelDownloads, body: AsyncIterable<Uint8Array>) {
          for await (const chunk of body) {
            download.received += chunk.byteLength;
            if (download.received > this.opts.maxBytes)
              throw new Final(
                `the file grew past this server's limit (${gb(this.opts.maxBytes)}, BUILTIN_MAX_MODEL_GB)`,
              );
            // The GGUF magic is judged on the first bytes, not after the whole file has been written.
            if (head) {
              head = Buffer.concat([head, chunk.subarray(0, 4 - head.length)]);
              if (head.length >= 4) {
                if (head.toString('latin1') !== 'GGUF')
                  throw new Final('the file is not a GGUF model (its first bytes are not "GGUF")');
                head = null;
              }
            }
            sinceDiskCheck += chunk.byteLength;
            if (sinceDiskCheck >= DISK_CHECK_EVERY) {
              sinceDiskCheck = 0;
              await this.assertDiskRoom(0).catch((e: Error) => Promise.reject(new Final(e.message)));
            }
            tell();
            yield chunk;
          }
          if (head) throw new Final('the file is not a GGUF model (it is shorter than the GGUF magic)');
        }.bind(this);
        await pipeline(
          Readable.fromWeb(res.body as import('node:stream/web').ReadableStream<Uint8Array>),
          counter,
          createWriteStream(part, { flags: append ? 'a' : 'w' }),
          { signal: job.abort.signal },
        );
      }
      if (download.total !== null && download.received < download.total)
        throw new Error(`the connection closed after ${gb(download.received)} of ${gb(download.total)}`);

      download.state = 'verifying';
      tell(true);
      if (!(await isGguf(part))) throw new Final('the file is not a GGUF model (its first bytes are not "GGUF")');
      if (download.sha256) {
        const got = await sha256Of(part, job.abort.signal);
        if (got !== download.sha256)
          throw new Final(`its SHA-256 is ${got}, not the expected ${download.sha256}; the file was removed`);
      }
      await rename(part, path.join(this.opts.dir, download.file));
      await rm(this.sidecarPath(download.file), { force: true });
      download.state = 'done';
      download.total ??= download.received;
    } catch (e) {
      const reason = job.abort.signal.reason;
      if (job.abort.signal.aborted && !(reason instanceof Error && reason.message.includes('shutting down'))) {
        download.state = 'cancelled';
        download.error = null;
      } else {
        // A failure for good removes what was written; a cut connection keeps it so the same URL resumes it.
        // What reached the disk is what counts: bytes still in the write stream's buffer when it broke are gone.
        if (e instanceof Final || blockedCause(e)) await this.removePartial(download.file);
        download.received = await stat(part).then(
          (st) => st.size,
          () => 0,
        );
        download.state = existsSync(part) ? 'interrupted' : 'failed';
        download.error = `Download of ${download.file} failed: ${describe(e)}`;
        // With no way out to the internet, say what works instead: a file copied into the models folder.
        if (unreachable(e))
          download.error += `. This server cannot reach ${new URL(download.url).hostname}: put a .gguf file in ${this.opts.dir}, then Refresh.`;
      }
    }
    tell(true);
  }

  /** GET with redirects followed by hand, so every hop's address is checked. */
  private async fetchFollowing(start: URL, from: number, signal: AbortSignal): Promise<Response> {
    let url = start;
    for (let hop = 0; hop <= MAX_REDIRECTS; hop++) {
      await assertFetchable(url, this.opts.allowPrivate).catch((e: Error) => Promise.reject(new Final(e.message)));
      const res = await this.fetch(url, {
        redirect: 'manual',
        signal,
        headers: from > 0 ? { range: `bytes=${from}-` } : {},
      });
      const location = res.headers.get('location');
      if (res.status >= 300 && res.status < 400 && location) {
        await res.body?.cancel();
        url = new URL(location, url);
        continue;
      }
      return res;
    }
    throw new Final(`more than ${MAX_REDIRECTS} redirects`);
  }

  /** Refuses a download past the running limits, per user and in all. */
  private assertRoomToStart(userId: string | null) {
    const running = [...this.jobs.values()].filter(
      (j) => j.download.state === 'running' || j.download.state === 'verifying',
    );
    const perUser = this.opts.maxPerUser ?? Infinity;
    if (running.filter((j) => j.userId === userId).length >= perUser) {
      throw new Refused(
        `You have ${perUser} download${perUser === 1 ? '' : 's'} running, as many as this server allows at once (BUILTIN_MAX_DOWNLOADS_PER_USER); wait for it to finish`,
        429,
      );
    }
    const all = this.opts.maxRunning ?? Infinity;
    if (running.length >= all)
      throw new Refused(
        `This server is running ${all} downloads, as many as it allows at once (BUILTIN_MAX_DOWNLOADS); try again later`,
        429,
      );
  }

  /** Refuses (507) when the models directory or the disk has no room for `more` bytes. */
  private async assertDiskRoom(more: number) {
    const maxTotal = this.opts.maxTotalBytes ?? Infinity;
    if (Number.isFinite(maxTotal)) {
      const used = await this.usedBytes();
      if (used + more > maxTotal || used >= maxTotal) {
        throw new Refused(
          `The models directory holds ${gb(used)}; ${more ? `${gb(more)} more` : 'more'} would pass this server's limit of ${gb(maxTotal)} (BUILTIN_MODELS_MAX_GB)`,
          507,
        );
      }
    }
    const minFree = this.opts.minFreeBytes ?? 0;
    if (minFree > 0) {
      const free = await (this.opts.freeBytes ?? systemFreeBytes)(this.opts.dir).catch(() => Infinity);
      if (free - more < minFree)
        throw new Refused(
          `The server's disk has ${gb(free)} free; it keeps ${gb(minFree)} free (BUILTIN_MIN_FREE_DISK_GB)`,
          507,
        );
    }
  }

  /** Bytes of every file in the models directory, partial downloads included. */
  private async usedBytes(): Promise<number> {
    let sum = 0;
    for (const name of await readdir(this.opts.dir).catch(() => [] as string[])) {
      sum += await stat(path.join(this.opts.dir, name)).then(
        (st) => (st.isFile() ? st.size : 0),
        () => 0,
      );
    }
    return sum;
  }

  private partPath = (file: string) => path.join(this.opts.dir, file + PARTIAL_SUFFIX);
  private sidecarPath = (file: string) => path.join(this.opts.dir, `${file}${PARTIAL_SUFFIX}.json`);

  private async readSidecar(file: string): Promise<Sidecar | null> {
    try {
      const v = JSON.parse(await readFile(this.sidecarPath(file), 'utf8')) as Partial<Sidecar>;
      if (typeof v.url !== 'string') return null;
      return {
        url: v.url,
        sha256: typeof v.sha256 === 'string' ? v.sha256 : null,
        total: typeof v.total === 'number' ? v.total : null,
        owner: typeof v.owner === 'string' ? v.owner : null,
      };
    } catch {
      return null;
    }
  }

  private async writeSidecarTotal(d: ModelDownload, owner: string | null) {
    await writeFile(
      this.sidecarPath(d.file),
      JSON.stringify({ url: d.url, sha256: d.sha256, total: d.total, owner } satisfies Sidecar),
    );
  }

  private async removePartial(file: string) {
    await rm(this.partPath(file), { force: true });
    await rm(this.sidecarPath(file), { force: true });
  }
}

async function sha256Of(file: string, signal: AbortSignal): Promise<string> {
  const hash = createHash('sha256');
  for await (const chunk of createReadStream(file, { signal })) hash.update(chunk as Buffer);
  return hash.digest('hex');
}

const NO_ROUTE = new Set([
  'ENOTFOUND',
  'EAI_AGAIN',
  'EAI_NONAME',
  'ENETUNREACH',
  'ENETDOWN',
  'EHOSTUNREACH',
  'ECONNREFUSED',
  'ETIMEDOUT',
  'UND_ERR_CONNECT_TIMEOUT',
]);
function unreachable(e: unknown): boolean {
  const err = e as { message?: string; cause?: { code?: string; message?: string; errors?: Array<{ code?: string }> } };
  const codes = [err?.cause?.code, ...(err?.cause?.errors ?? []).map((x) => x.code)];
  return (
    codes.some((c) => NO_ROUTE.has(c ?? '')) ||
    /could not be resolved|ECONNREFUSED|ENOTFOUND|EAI_AGAIN/.test(`${err?.message} ${err?.cause?.message}`)
  );
}

function describe(e: unknown): string {
  const err = e as { message?: string; cause?: { code?: string; message?: string } };
  const code = err?.cause?.code;
  if (code) return `${err.cause?.message ?? code} (${code})`;
  return err?.message ?? String(e);
}

const gb = (n: number) => (n >= 1e9 ? `${(n / 1e9).toFixed(2)} GB` : `${(n / 1e6).toFixed(1)} MB`);
