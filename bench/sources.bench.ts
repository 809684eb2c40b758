// Sources budgets (docs/performance.md#sources), in this process on loopback with an in-memory PGlite:
//   - reading a 300-page text PDF to a searchable source (POST /sources → 201): seconds (≤ 15 s) and the
//     process's peak memory above idle (≤ 300 MB);
//   - GET /health p99 from a client polling every 10 ms while that PDF is read (≤ 50 ms);
//   - retrieval for one turn (sources/turnPassages.ts: the query, the search, the budget) at 10,000 passages,
//     full-text: p95 (≤ 20 ms) — which is also what a turn with sources adds before its model call (≤ 30 ms);
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
const rssMb = () =>
  Math.round(Number(/VmRSS:\s+(\d+)/.exec(readFileSync('/proc/self/status', 'utf8'))?.[1] ?? 0) / 1024);

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

export default async function run(): Promise<Figures> {
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
  const base = (await server.listen()).replace('0.0.0.0', '127.0.0.1');
  const figures: Figures = {};
  try {
    const reg = await fetch(`${base}/auth/register`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'bench@example.com', password: 'bench-pass' }),
    });
    const { access_token: token } = (await reg.json()) as { access_token: string };
    const { id: userId } = (await (
      await fetch(`${base}/auth/me`, { headers: { authorization: `Bearer ${token}` } })
    ).json()) as {
      id: string;
    };
    step(`making a ${PAGES}-page PDF`);
    const pdf = bigPdf(PAGES);
    step('reading it');
    global.gc?.();
    const idle = rssMb();
    let peak = idle;
    const sampler = setInterval(() => {
      peak = Math.max(peak, rssMb());
    }, 50);
    const health: number[] = [];
    let reading = true;
    const poll = (async () => {
      while (reading) {
        const t0 = performance.now();
        await (await fetch(`${base}/health`)).arrayBuffer();
        health.push(performance.now() - t0);
        await new Promise((r) => setTimeout(r, 10));
      }
    })();
    const form = new FormData();
    form.append('file', new Blob([Buffer.from(pdf)]), 'report.pdf');
    const t0 = performance.now();
    const res = await fetch(`${base}/sources`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}` },
      body: form,
    });
    const readS = (performance.now() - t0) / 1000;
    reading = false;
    await poll;
    clearInterval(sampler);
    const made = (await res.json()) as { passages?: number; detail?: string };
    if (res.status !== 201) throw new Error(`the PDF was refused: ${made.detail}`);
    figures['sources.read_300_page_pdf_s'] = Math.round(readS * 100) / 100;
    figures['sources.read_pdf_pages'] = PAGES;
    figures['sources.read_pdf_passages'] = made.passages ?? 0;
    figures['sources.read_peak_rss_above_idle_mb'] = peak - idle;
    figures['sources.health_p99_ms_while_reading'] = pct(health, 99);
    figures['sources.health_samples_while_reading'] = health.length;

    step('filling 10,000 passages');
    const db = server.ctx.db;
    const tenK = await fillPassages(db, userId, 10_000);
    step('retrieving');
    const p95 = await retrievalP95(db, userId, tenK);
    figures['sources.retrieval_p95_ms_10k'] = p95;
    figures['sources.turn_added_ms_p95'] = p95;
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
