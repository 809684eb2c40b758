// Every bench budget in one place. A figure that has a floor — something that does the same job bare, measured in
// the same run — is budgeted as its ratio to that floor, so the budget means the same on a quiet machine and on a
// busy one; the absolute figures are printed beside it. `npm run bench` prints each budget after its bench and
// records the verdicts in bench/results/latest.json (`budgets`). Figure names are fixed: other checks read them.
import type { Figures } from './run';

export interface Budget {
  bench: string;
  /** The figure budgeted (a ratio to `floor` when there is one). */
  figure: string;
  /** What the figure is divided by, measured in the same run; null for a figure with no floor (a size, a frame). */
  floor: string | null;
  atMost?: number;
  atLeast?: number;
  /** The absolute figures printed beside it. */
  beside: string[];
}

export const BUDGETS: readonly Budget[] = [
  { bench: 'bundle', figure: 'login_js_gzip_kb', floor: null, atMost: 100, beside: ['login_js_raw_kb'] },
  {
    bench: 'server',
    figure: 'health_rps_ratio_agora_to_bare',
    floor: 'bare Fastify with one /health route',
    atLeast: 0.9,
    beside: ['health_rps_agora', 'health_rps_bare_fastify'],
  },
  {
    bench: 'server',
    figure: 'health_rps_ratio_agora_to_headers_floor',
    floor: 'bare Fastify sending the same eleven security headers',
    atLeast: 0.9,
    beside: ['health_rps_agora', 'health_rps_bare_fastify_with_headers'],
  },
  {
    bench: 'server',
    figure: 'cold_start_existing_ratio_to_bare',
    floor: 'bare Fastify opening the same PGlite data',
    atMost: 1.5,
    beside: ['cold_start_existing_data_ms_median', 'cold_start_existing_bare_ms_median'],
  },
  {
    bench: 'replay',
    figure: 'step_work_p95_ratio_to_bare',
    floor: 'a bare range input in the same page',
    atMost: 1.1,
    beside: ['step_work_ms_p95', 'bare_step_work_ms_p95'],
  },
  { bench: 'replay', figure: 'open_to_painted_ms_median', floor: null, atMost: 300, beside: [] },
  {
    bench: 'canvas',
    figure: 'pan60_total_ratio',
    floor: 'bare React Flow',
    atMost: 1.3,
    beside: ['pan60_total_ms_ours', 'pan60_total_ms_bare'],
  },
  {
    bench: 'canvas',
    figure: 'first_render_ratio',
    floor: 'bare React Flow',
    atMost: 1.3,
    beside: ['first_render_ms_ours', 'first_render_ms_bare'],
  },
  {
    bench: 'ingest',
    figure: 'machine_path_ratio_to_json_parse',
    floor: 'JSON.parse of the same text',
    atMost: 12,
    beside: ['machine_path_ms', 'json_parse_ms'],
  },
  {
    // Its own floor, as the standard path's: the hybrid stream's frames are a third longer, so frames per second
    // against the standard stream's (printed beside) compared two different texts.
    bench: 'ingest',
    figure: 'hybrid_machine_path_ratio_to_json_parse',
    floor: 'JSON.parse of the same (hybrid) text',
    atMost: 12,
    beside: ['hybrid_machine_path_ms', 'hybrid_json_parse_ms', 'hybrid_fps_to_standard_fps'],
  },
  {
    bench: 'builtinEngine',
    figure: 'tokens_per_s_ratio_to_bare',
    floor: 'node-llama-cpp alone',
    atLeast: 0.9,
    beside: [],
  },
  {
    bench: 'builtinEngine',
    figure: 'first_token_ratio_to_bare',
    floor: "the model's own first token (node-llama-cpp alone)",
    atMost: 1.1,
    beside: [],
  },
  {
    bench: 'audioGap',
    figure: 'gap_median_ratio_to_floor',
    floor: "the spec's 200 ms between clips",
    atMost: 1.15,
    beside: ['gap_median_ms', 'gap_p95_ms'],
  },
  { bench: 'rooms', figure: 'fanout_frames_lost', floor: null, atMost: 0, beside: ['fanout_frames'] },
  {
    bench: 'rooms',
    figure: 'fanout_p99_ratio_to_bare',
    floor: 'a bare ws server sending the same frames at the same moments to 1,000 sockets',
    atMost: 2,
    beside: ['fanout_p99_ms', 'fanout_bare_p99_ms', 'fanout_p50_ms'],
  },
];

/**
 * Budgets of a run paired with an older commit (`npm run bench -- <name> --vs <commit>`): the figure's ratio, this
 * tree ÷ that commit, medians of alternating runs. The hybrid replay's ingest must be no slower than the commit
 * before the formats work (7523411).
 */
export const VS_BUDGETS: readonly Budget[] = [
  {
    bench: 'hybridReplay',
    figure: 'replay_ingest_fps',
    floor: 'the same bench at the commit paired with (--vs)',
    atLeast: 1,
    beside: ['replay_ingest_ms'],
  },
];

export interface Verdict {
  figure: string;
  value: number | null;
  budget: string;
  within: boolean | null;
  floor: string | null;
  beside: Record<string, number | string>;
}

const limit = (b: Budget, unit: string) =>
  b.atMost !== undefined ? `≤ ${b.atMost}${unit}` : `≥ ${b.atLeast ?? 0}${unit}`;

/** Each budget of `bench` against its figures; a figure the run did not give is reported, not failed. */
export function verdicts(bench: string, figures: Figures, list: readonly Budget[] = BUDGETS): Verdict[] {
  return list
    .filter((b) => b.bench === bench)
    .map((b) => {
      const raw = figures[b.figure];
      const value = raw === undefined || raw === '' || Number.isNaN(Number(raw)) ? null : Number(raw);
      const within =
        value === null
          ? null
          : (b.atMost === undefined || value <= b.atMost) && (b.atLeast === undefined || value >= b.atLeast);
      const beside: Record<string, number | string> = {};
      for (const k of b.beside) if (figures[k] !== undefined) beside[k] = figures[k]!;
      return { figure: b.figure, value, budget: limit(b, b.floor ? '×' : ''), within, floor: b.floor, beside };
    });
}

/** Lines for the console: the ratio (or the figure) first, its budget, then the absolute figures beside it. */
export function verdictLines(list: Verdict[]): string[] {
  return list.map((v) => {
    const mark = v.within === null ? '?' : v.within ? '✓' : '✗ OVER';
    const shown = v.value === null ? 'not measured' : `${v.value}${v.floor ? '×' : ''}`;
    const of = v.floor ? ` of ${v.floor}` : '';
    const abs = Object.entries(v.beside)
      .map(([k, x]) => `${k} ${x}`)
      .join(', ');
    return `  ${mark} ${v.figure} ${shown}${of} (budget ${v.budget})${abs ? ` — ${abs}` : ''}`;
  });
}
