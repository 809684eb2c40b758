// An evaluation's figures as a table, CSV and JSON: one function for the dialog's chart and export and for the
// CLI's print-out, so both say the same numbers.
import type { EvalMethod, EvalMethodResult, EvalRun } from '../schemas/eval';
import { resultKey, resultLabel } from '../schemas/evalConstants';

export interface EvalRow {
  method: string;
  label: string;
  done: number;
  total: number;
  accuracy: string;
  ci: string;
  tokensPerQuestion: string;
  secondsPerQuestion: string;
  k: string;
  firstVote: string;
}

const pct = (x: number | null) => (x === null ? '–' : `${(x * 100).toFixed(1)} %`);
const num = (x: number | null, digits = 0) => (x === null ? '–' : x.toFixed(digits));

export function firstVoteText(r: EvalMethodResult): string {
  const f = r.first_vote;
  if (!f) return '–';
  return `${f.first_correct}→${f.final_correct} of ${f.n} (helped ${f.helped}, hurt ${f.hurt}; agents right→wrong ${f.right_to_wrong}, wrong→right ${f.wrong_to_right})`;
}

export function evalRows(run: Pick<EvalRun, 'results'>): EvalRow[] {
  return run.results.map((r) => ({
    method: resultKey(r),
    label: resultLabel(r),
    done: r.done,
    total: r.total,
    accuracy: pct(r.accuracy),
    ci: r.ci_low === null || r.ci_high === null ? '–' : `${pct(r.ci_low)} – ${pct(r.ci_high)}`,
    tokensPerQuestion: num(r.tokens_per_question),
    secondsPerQuestion: num(r.seconds_per_question, 2),
    k: r.k === null ? '' : String(r.k),
    firstVote: firstVoteText(r),
  }));
}

/** The models a method asked: the single-model methods one model, a panel its agents (and its judge or chair). */
export function methodModels(
  run: Pick<EvalRun, 'models' | 'single_model' | 'judge_model'>,
  method: EvalMethod,
): string[] {
  if (method === 'round_table') return run.models;
  if (method === 'council') return [...run.models, `chair ${run.judge_model}`];
  if (method === 'debate') return [...run.models, `judge ${run.judge_model}`];
  return [run.single_model];
}

type CsvRun = Pick<EvalRun, 'id' | 'tasks' | 'models' | 'single_model' | 'judge_model' | 'results'>;

// Each row says what it measured (the run, the task set and its seed, the method's models), so a CSV copied
// out of its folder still reads on its own.
const CSV_HEADER = [
  'run_id',
  'task_set',
  'seed',
  'method',
  'models',
  'done',
  'total',
  'correct',
  'accuracy',
  'ci_low',
  'ci_high',
  'tokens_per_question',
  'seconds_per_question',
  'k',
  'unreadable',
  'estimated_calls',
  'first_vote_correct',
  'final_correct',
  'helped',
  'hurt',
  'right_to_wrong',
  'wrong_to_right',
];

const cell = (v: unknown) => {
  const s = v === null || v === undefined ? '' : String(v);
  return /[",\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
};

export function evalCsv(run: CsvRun): string {
  const lines = run.results.map((r) =>
    [
      run.id,
      run.tasks.label,
      run.tasks.seed,
      resultKey(r),
      methodModels(run, r.method).join('; '),
      r.done,
      r.total,
      r.correct,
      r.accuracy,
      r.ci_low,
      r.ci_high,
      r.tokens_per_question,
      r.seconds_per_question,
      r.k,
      r.unreadable,
      r.estimated_calls,
      r.first_vote?.first_correct,
      r.first_vote?.final_correct,
      r.first_vote?.helped,
      r.first_vote?.hurt,
      r.first_vote?.right_to_wrong,
      r.first_vote?.wrong_to_right,
    ]
      .map(cell)
      .join(','),
  );
  return `${[CSV_HEADER.join(','), ...lines].join('\n')}\n`;
}

export const evalJson = (run: EvalRun) =>
  `${JSON.stringify({ format: 'agora-evaluation', version: 1, run }, null, 2)}\n`;

/** A plain-text table (the CLI's output). */
export function evalTable(run: Pick<EvalRun, 'results'>): string {
  const rows = evalRows(run);
  const head = ['Method', 'Done', 'Accuracy', '95 % CI', 'Tokens/q', 'Seconds/q', 'k', 'First vote → final'];
  const body = rows.map((r) => [
    r.label,
    `${r.done}/${r.total}`,
    r.accuracy,
    r.ci,
    r.tokensPerQuestion,
    r.secondsPerQuestion,
    r.k,
    r.firstVote,
  ]);
  const widths = head.map((h, i) => Math.max(h.length, ...body.map((b) => b[i].length)));
  const line = (cells: string[]) =>
    cells
      .map((c, i) => (i === cells.length - 1 ? c : c.padEnd(widths[i])))
      .join('  ')
      .trimEnd();
  return [line(head), line(widths.map((w) => '-'.repeat(w))), ...body.map(line)].join('\n');
}
