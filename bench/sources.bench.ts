// Sources budgets (docs/performance.md#sources):
//   - reading a 300-page text PDF to a searchable source (POST /sources → 201) in a server run as a separate
//     process (the built bundle, in-memory PGlite): seconds (≤ 15 s) and that process's peak memory above idle
//     (≤ 300 MB); meanwhile, from this process, GET /health every ~10 ms (p99 ≤ 50 ms) and a running discussion's
//     deltas (the largest pause, beside the same discussion's largest pause with nothing read);
//   - retrieval for one turn (sources/turnPassages.ts: the query, the search, the budget) at 10,000 passages,
//     full-text, in this process: p95 (≤ 20 ms) — which is also what a turn with sources adds before its model
//     call (≤ 30 ms);
//   - the same at 100,000 passages on PostgreSQL, where Debian's PostgreSQL is installed (≤ 50 ms).
//
//   npm run bench sources
import { randomUUID } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { jsPDF } from 'jspdf';
import { buildServer } from '../server/app';
import type { Queryable } from '../server/db/db';
import { loadConfig } from '../server/config';
import { passagesForTurn } from '../server/sources/turnPassages';
import { postgresUnavailableReason, startPostgres } from '../tests/server/postgresCluster';
// @ts-expect-error a plain .mjs script without types
import { buildServerIfNeeded } from '../scripts/lib/serverBundle.mjs';
import { call, openSocket, startServerProcess } from '../tests/server/serverProcess';
import type { Figures } from './run';

const PAGES = Number(process.env.BENCH_PDF_PAGES ?? 300);
const QUERIES = 200;
const step = (what: string) => console.log(`  [sources] ${new Date().toISOString().slice(11, 19)} ${what}`);

// A vocabulary of made-up words drawn with Zipf's law, as words in real text are: a few common, most rare.
const VOCABULARY = Array.from({ length: 5_000 }, (_, i) => {
  const letters = 'abcdefghiklmnoprstuvw';
  let w = '';
  for (let n = i + 7; w.length < 4 || n > 0; n = Math.floor(n / letters.length)) w += letters[n % letters.length];
  return w;
});
const HARMONIC = VOCABULARY.reduce((h, _, i) => h + 1 / (i + 1), 0);
let seed = 42;
const random = () => {
  seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31;
  return seed / 2 ** 31;
};
function zipfWord(): string {
  let target = random() * HARMONIC;
  for (let i = 0; i < VOCABULARY.length; i++) {
    target -= 1 / (i + 1);
    if (target <= 0) return VOCABULARY[i];
  }
  return VOCABULARY[VOCABULARY.length - 1];
}
const pick = (_n: number) => zipfWord();
const sentence = (n: number) =>
  `${Array.from({ length: 14 }, () => zipfWord()).join(' ')} ${n % 997}.`.replace(/^./, (c) => c.toUpperCase());

function bigPdf(pages: number): Uint8Array {
  const doc = new jsPDF();
  for (let p = 0; p < pages; p++) {
    if (p) doc.addPage();
    // About 400 words a page, as a report's body text.
    const text = Array.from({ length: 27 }, (_, i) => sentence(p * 100 + i)).join(' ');
    doc.setFontSize(9);
    doc.text(doc.splitTextToSize(text, 190), 10, 10);
  }
  return new Uint8Array(doc.output('arraybuffer'));
}

const pct = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return Math.round(s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))] * 100) / 100;
};

async function fillPassages(db: Queryable, userId: string, count: number): Promise<string> {
  const sourceId = randomUUID();
  await db.query(
    `INSERT INTO sources (id, user_id, name, kind, pages, passages, bytes) VALUES ($1, $2, 'bench.pdf', 'pdf', $3, $3, 0)`,
    [sourceId, userId, count],
  );
  for (let start = 0; start < count; start += 250) {
    const n = Math.min(250, count - start);
    const params: unknown[] = [sourceId, userId];
    const rows = Array.from({ length: n }, (_, i) => {
      params.push(start + i, Array.from({ length: 25 }, (_, k) => sentence(start + i + k)).join(' '));
      return `(gen_random_uuid()::text, $1, $2, $${params.length - 1}::int, $${params.length - 1}::int, NULL, $${params.length})`;
    });
    await db.query(
      `INSERT INTO source_passages (id, source_id, user_id, ord, page, heading, text) VALUES ${rows.join(', ')}`,
      params,
    );
  }
  return sourceId;
}

async function retrievalP95(db: Queryable, userId: string, sourceId: string): Promise<number> {
  const cfg = loadConfig({}).sources;
  const times: number[] = [];
  for (let q = 0; q < QUERIES; q++) {
    const t0 = performance.now();
    await passagesForTurn(db, cfg, userId, {
      sourceIds: [sourceId],
      texts: [`Should the ${pick(q)} ${pick(q + 1)} change?`, 'Transit planner', sentence(q), sentence(q + 7)],
    });
    times.push(performance.now() - t0);
  }
  return pct(times.slice(10), 95);
}

/** The largest pause between deltas inside [from, to]: the window's edges count as arrivals. */
function largestGap(arrivals: number[], from: number, to: number): number {
  const inside = [from, ...arrivals.filter((t) => t > from && t < to), to];
  let gap = 0;
  for (let i = 1; i < inside.length; i++) gap = Math.max(gap, inside[i] - inside[i - 1]);
  return Math.round(gap);
}

/** Peak resident memory of a process (its reader threads are in it) while `during` runs, above before it. */
function sampleRss(pid: number): { stop(): { idle: number; peak: number } } {
  const rss = () =>
    Math.round(Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0) / 1024);
  const idle = rss();
  let peak = idle;
  const timer = setInterval(() => {
    peak = Math.max(peak, rss());
  }, 50);
  return {
    stop() {
      clearInterval(timer);
      return { idle, peak };
    },
  };
}

/**
 * Reading a large PDF, seen from outside: the server (the built bundle, as `npm start` runs it) in a child process,
 * this process its client. While the PDF is read, /health is asked every ~10 ms and a discussion with the offline
 * model (at a human pace) streams its deltas; the same discussion's largest pause between deltas with nothing read
 * is the yardstick.
 */
async function readWhileServing(figures: Figures): Promise<void> {
  const dir = mkdtempSync(path.join(tmpdir(), 'agora-bench-sources-proc-'));
  const bundle: string = await buildServerIfNeeded();
  const server = await startServerProcess(
    {
      DATABASE_URL: 'memory://',
      DATA_DIR: dir,
      LOG_LEVEL: 'error',
      OFFLINE_MODEL_TOKENS_PER_SECOND: '40',
      SOURCE_READ_TIMEOUT_MS: '600000',
    },
    120_000,
    [bundle],
  );
  try {
    const reg = await call(server.url, 'POST', '/auth/register', undefined, {
      email: 'bench@example.com',
      password: 'bench-pass-1',
    });
    const token = reg.body.access_token as string;
    const agentIds: string[] = [];
    for (const [name, role] of [
      ['Ada', 'Transit planner'],
      ['Bo', 'Budget officer'],
    ]) {
      const r = await call(server.url, 'POST', '/agents/', token, {
        name,
        role,
        prompt: 'Be brief.',
        model: 'offline',
      });
      agentIds.push(String(r.body.id));
    }
    const { ws, c } = await openSocket(server.wsUrl, '/ws/discuss', token);
    const arrivals: number[] = [];
    ws.on('message', (d) => {
      if (String(d).includes('"agent_message_delta"')) arrivals.push(performance.now());
    });
    ws.send(
      JSON.stringify({
        agent_ids: agentIds,
        session_id: `session_bench_${Date.now()}`,
        context: 'Should the city keep free fares on route 12?',
        turns: 50,
      }),
    );
    await c.until(() => arrivals.length > 0, 60_000);
    // The yardstick: the same discussion's pauses with nothing being read (turn changes included).
    const idleFrom = performance.now();
    await new Promise((r) => setTimeout(r, 8_000));
    figures['sources.delta_gap_max_ms_idle'] = largestGap(arrivals, idleFrom, performance.now());

    step(`making a ${PAGES}-page PDF`);
    const pdf = bigPdf(PAGES);
    step('reading it in the server process while asking /health and streaming a discussion');
    const memory = sampleRss(server.proc.pid!);
    const health: number[] = [];
    let reading = true;
    const poll = (async () => {
      while (reading) {
        const t0 = performance.now();
        await (await fetch(`${server.url}/health`)).arrayBuffer();
        health.push(performance.now() - t0);
        await new Promise((r) => setTimeout(r, 10));
      }
    })();
    const form = new FormData();
    form.append('file', new Blob([Buffer.from(pdf)]), 'report.pdf');
    const t0 = performance.now();
    const res = await fetch(`${server.url}/sources`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}` },
      body: form,
    });
    const t1 = performance.now();
    reading = false;
    await poll;
    const { idle, peak } = memory.stop();
    const made = (await res.json()) as { passages?: number; detail?: string };
    ws.close();
    if (res.status !== 201) throw new Error(`the PDF was refused: ${made.detail}`);
    figures['sources.read_300_page_pdf_s'] = Math.round(((t1 - t0) / 1000) * 100) / 100;
    figures['sources.read_pdf_pages'] = PAGES;
    figures['sources.read_pdf_passages'] = made.passages ?? 0;
    figures['sources.read_peak_rss_above_idle_mb'] = peak - idle;
    figures['sources.health_p99_ms_while_reading'] = pct(health, 99);
    figures['sources.health_max_ms_while_reading'] = pct(health, 100);
    figures['sources.health_samples_while_reading'] = health.length;
    figures['sources.delta_gap_max_ms_while_reading'] = largestGap(arrivals, t0, t1);
    figures['sources.deltas_while_reading'] = arrivals.filter((t) => t > t0 && t < t1).length;
  } finally {
    await server.kill();
    rmSync(dir, { recursive: true, force: true });
  }
}

export default async function run(): Promise<Figures> {
  const figures: Figures = {};
  await readWhileServing(figures);

  const dir = mkdtempSync(path.join(tmpdir(), 'agora-bench-sources-'));
  const server = await buildServer({
    port: 0,
    host: '127.0.0.1',
    databaseUrl: 'memory://',
    dataDir: dir,
    mediaDir: path.join(dir, 'media'),
    jwtSecret: 'bench-sources-secret-0123456789abcdef',
    logLevel: 'silent',
    staticDir: undefined,
  });
  try {
    const db = server.ctx.db;
    const userId = randomUUID();
    await db.query(`INSERT INTO users (id, email, password_hash) VALUES ($1, $2, 'x')`, [userId, `${userId}@bench`]);
    step('filling 10,000 passages');
    const tenK = await fillPassages(db, userId, 10_000);
    step('retrieving');
    const p95 = await retrievalP95(db, userId, tenK);
    figures['sources.retrieval_p95_ms_10k'] = p95;
    // What a turn with sources does before its model call is this retrieval (sources/turnPassages.ts), nothing else.
    figures['sources.turn_added_ms'] = p95;
  } finally {
    await server.close();
    rmSync(dir, { recursive: true, force: true });
  }

  if (postgresUnavailableReason() === null) {
    const cluster = await startPostgres();
    const dir2 = mkdtempSync(path.join(tmpdir(), 'agora-bench-sources-pg-'));
    const pgServer = await buildServer({
      port: 0,
      host: '127.0.0.1',
      databaseUrl: cluster.url,
      dataDir: dir2,
      mediaDir: path.join(dir2, 'media'),
      jwtSecret: 'bench-sources-secret-0123456789abcdef',
      logLevel: 'silent',
      staticDir: undefined,
    });
    try {
      const db = pgServer.ctx.db;
      const userId = randomUUID();
      await db.query(`INSERT INTO users (id, email, password_hash) VALUES ($1, $2, 'x')`, [userId, `${userId}@bench`]);
      step('filling 100,000 passages on PostgreSQL');
      const hundredK = await fillPassages(db, userId, 100_000);
      step('retrieving');
      await db.query('ANALYZE source_passages');
      figures['sources.retrieval_p95_ms_100k_postgres'] = await retrievalP95(db, userId, hundredK);
    } finally {
      await pgServer.close();
      await cluster.stop();
      rmSync(dir2, { recursive: true, force: true });
    }
  } else figures['sources.retrieval_p95_ms_100k_postgres'] = `skipped: ${postgresUnavailableReason()}`;
  return figures;
}
