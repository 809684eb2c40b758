import type { Db } from '../db/db';
import type { EvalRunSettings, EvalTaskItem, EvalVariant } from '../../src/schemas/eval';
import { variantParts } from '../../src/schemas/evalConstants';
import type { RunStore } from './runner';
import { emptySums, type MethodSums, type ResultRow } from './summary';

// The eval_runs and eval_results tables. Every query is scoped to its user; results are written one question at
// a time (a stop loses at most the questions in flight).

export interface RunRow {
  id: string;
  user_id: string;
  name: string;
  status: string;
  detail: string | null;
  settings: EvalRunSettings & { single: string; judge: string };
  task_view: { kind: 'arithmetic' | 'reasoning' | 'file'; label: string; seed?: number };
  items: EvalTaskItem[];
  k: number | null;
  created_at: string | Date;
}

const SUMMARY_COLUMNS =
  'id, user_id, name, status, detail, settings, task_view, jsonb_array_length(items) AS question_count, k, created_at';
export type RunSummaryRow = Omit<RunRow, 'items'> & { question_count: number };

export async function insertRun(db: Db, row: Omit<RunRow, 'created_at' | 'k'>): Promise<void> {
  await db.query(
    `INSERT INTO eval_runs (id, user_id, name, status, detail, settings, task_view, items)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`,
    [
      row.id,
      row.user_id,
      row.name,
      row.status,
      row.detail,
      JSON.stringify(row.settings),
      JSON.stringify(row.task_view),
      JSON.stringify(row.items),
    ],
  );
}

export const listRunRows = (db: Db, userId: string) =>
  db.query<RunSummaryRow>(`SELECT ${SUMMARY_COLUMNS} FROM eval_runs WHERE user_id = $1 ORDER BY created_at DESC, id`, [
    userId,
  ]);

export async function runRow(db: Db, userId: string, id: string): Promise<RunSummaryRow | null> {
  const [row] = await db.query<RunSummaryRow>(
    `SELECT ${SUMMARY_COLUMNS} FROM eval_runs WHERE id = $1 AND user_id = $2`,
    [id, userId],
  );
  return row ?? null;
}

export async function runItems(db: Db, id: string): Promise<EvalTaskItem[]> {
  const [row] = await db.query<{ items: EvalTaskItem[] }>('SELECT items FROM eval_runs WHERE id = $1', [id]);
  return row?.items ?? [];
}

export const countRuns = async (db: Db, userId: string) =>
  Number((await db.query<{ n: number }>('SELECT count(*)::int AS n FROM eval_runs WHERE user_id = $1', [userId]))[0].n);

export const setStatus = (db: Db, id: string, status: string, detail: string | null) =>
  db.query('UPDATE eval_runs SET status = $2, detail = $3, updated_at = now() WHERE id = $1', [id, status, detail]);

export const setBudget = (db: Db, id: string, budget: number | null) =>
  db.query(`UPDATE eval_runs SET settings = jsonb_set(settings, '{budget_tokens}', $2::jsonb) WHERE id = $1`, [
    id,
    JSON.stringify(budget),
  ]);

export const deleteRun = (db: Db, userId: string, id: string) =>
  db.query('DELETE FROM eval_runs WHERE id = $1 AND user_id = $2', [id, userId]);

interface SumRow {
  run_id: string;
  method: string;
  done: number;
  correct: number;
  tokens: number;
  ms: number;
  unreadable: number;
  estimated: number;
  fv_n: number;
  first_correct: number;
  final_correct: number;
  helped: number;
  hurt: number;
  right_to_wrong: number;
  wrong_to_right: number;
}

/** The same sums as summary.ts sumRows, counted by the database for many runs at once. */
export async function runSums(db: Db, runIds: string[]): Promise<Map<string, Map<EvalVariant, MethodSums>>> {
  const out = new Map<string, Map<EvalVariant, MethodSums>>();
  if (!runIds.length) return out;
  const rows = await db.query<SumRow>(
    `SELECT run_id, method, count(*)::int AS done, sum(correct::int)::int AS correct, sum(tokens)::bigint AS tokens,
       sum(ms)::bigint AS ms, sum(unreadable)::int AS unreadable, sum(estimated)::int AS estimated,
       count(first_correct)::int AS fv_n, coalesce(sum(first_correct::int), 0)::int AS first_correct,
       sum(CASE WHEN first_correct IS NOT NULL AND correct THEN 1 ELSE 0 END)::int AS final_correct,
       sum(CASE WHEN first_correct = false AND correct THEN 1 ELSE 0 END)::int AS helped,
       sum(CASE WHEN first_correct AND NOT correct THEN 1 ELSE 0 END)::int AS hurt,
       sum(right_to_wrong)::int AS right_to_wrong, sum(wrong_to_right)::int AS wrong_to_right
     FROM eval_results WHERE run_id = ANY($1) GROUP BY run_id, method`,
    [runIds],
  );
  for (const r of rows) {
    if (!variantParts(r.method)) continue;
    let m = out.get(r.run_id);
    if (!m) out.set(r.run_id, (m = new Map()));
    m.set(r.method as EvalVariant, {
      ...emptySums(),
      done: r.done,
      correct: r.correct,
      tokens: Number(r.tokens),
      ms: Number(r.ms),
      unreadable: r.unreadable,
      estimated: r.estimated,
      fvN: r.fv_n,
      firstCorrect: r.first_correct,
      finalCorrect: r.final_correct,
      helped: r.helped,
      hurt: r.hurt,
      rightToWrong: r.right_to_wrong,
      wrongToRight: r.wrong_to_right,
    });
  }
  return out;
}

/** A run's answers as the runner reads and writes them. */
export function dbRunStore(db: Db, runId: string): RunStore {
  return {
    async rows() {
      const rows = await db.query<{
        method: EvalVariant;
        idx: number;
        correct: boolean;
        answer: string | null;
        tokens: number;
        ms: number;
        unreadable: number;
        estimated: number;
        first_correct: boolean | null;
        right_to_wrong: number;
        wrong_to_right: number;
      }>('SELECT * FROM eval_results WHERE run_id = $1', [runId]);
      return rows.map((r) => ({
        method: r.method,
        idx: r.idx,
        correct: r.correct,
        answer: r.answer,
        tokens: r.tokens,
        ms: r.ms,
        unreadable: r.unreadable,
        estimated: r.estimated,
        firstCorrect: r.first_correct,
        rightToWrong: r.right_to_wrong,
        wrongToRight: r.wrong_to_right,
      }));
    },
    async save(r: ResultRow) {
      await db.query(
        `INSERT INTO eval_results (run_id, method, idx, correct, answer, tokens, ms, unreadable, estimated, first_correct,
           right_to_wrong, wrong_to_right)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12) ON CONFLICT (run_id, method, idx) DO NOTHING`,
        [
          runId,
          r.method,
          r.idx,
          r.correct,
          r.answer,
          r.tokens,
          r.ms,
          r.unreadable,
          r.estimated,
          r.firstCorrect,
          r.rightToWrong,
          r.wrongToRight,
        ],
      );
    },
    async saveK(k: number) {
      await db.query('UPDATE eval_runs SET k = $2 WHERE id = $1', [runId, k]);
    },
  };
}
