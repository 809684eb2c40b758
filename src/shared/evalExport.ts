// An evaluation's figures as a table, CSV and JSON: one function for the dialog's chart and export and for the
// CLI's print-out, so both say the same numbers.
import type { EvalMethodResult, EvalRun } from '../schemas/eval';
import { EVAL_METHOD_LABELS } from '../schemas/evalConstants';

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
    method: r.method,
    label: EVAL_METHOD_LABELS[r.method],
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

const CSV_HEADER = [
  'method',
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

export function evalCsv(run: Pick<EvalRun, 'results'>): string {
  const lines = run.results.map((r) =>
    [
      r.method,
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
