// Accuracy per method as bars with their 95 % intervals, tokens per question as diamonds on the right-hand axis;
// an SVG with role="img" and a title, and the same figures as a table beneath it (what a screen reader reads).
import type { EvalMethodResult } from '../../schemas/eval';
import { EVAL_METHOD_LABELS, resultKey } from '../../schemas/evalConstants';
import { evalRows } from '../../shared/evalExport';

const W = 560;
const H = 232;
// Room below the bars for two label lines: a method asked with the calculator says so on its second line.
const PAD = { left: 44, right: 56, top: 26, bottom: 46 };

export function EvalChart({ results, title }: { results: EvalMethodResult[]; title: string }) {
  const shown = results.filter((r) => r.accuracy !== null);
  const plotW = W - PAD.left - PAD.right;
  const plotH = H - PAD.top - PAD.bottom;
  const maxTokens = Math.max(1, ...shown.map((r) => r.tokens_per_question ?? 0));
  const slot = plotW / Math.max(1, shown.length);
  const y = (p: number) => PAD.top + plotH * (1 - p);
  const yTok = (t: number) => PAD.top + plotH * (1 - t / maxTokens);
  const rows = evalRows({ results });
  return (
    <figure className="eval-chart">
      {shown.length === 0 ? (
        <p className="eval-empty">The chart appears once a method has answered its first question.</p>
      ) : (
        <svg viewBox={`0 0 ${W} ${H}`} role="img" aria-labelledby="eval-chart-title" className="eval-chart__svg">
          <title id="eval-chart-title">{title}</title>
          {[0, 0.25, 0.5, 0.75, 1].map((p) => (
            <g key={p}>
              <line x1={PAD.left} x2={W - PAD.right} y1={y(p)} y2={y(p)} className="eval-chart__grid" />
              <text x={PAD.left - 6} y={y(p) + 4} textAnchor="end" className="eval-chart__tick">{`${p * 100}%`}</text>
              <text x={W - PAD.right + 6} y={y(p) + 4} className="eval-chart__tick">
                {Math.round(maxTokens * p)}
              </text>
            </g>
          ))}
          <text x={W - 4} y={PAD.top - 12} textAnchor="end" className="eval-chart__axis">
            tokens/q ◆
          </text>
          <text x={4} y={PAD.top - 12} className="eval-chart__axis">
            accuracy
          </text>
          {shown.map((r, i) => {
            const cx = PAD.left + slot * i + slot / 2;
            const bw = Math.min(56, slot * 0.5);
            return (
              <g key={resultKey(r)}>
                <rect
                  x={cx - bw / 2}
                  y={y(r.accuracy!)}
                  width={bw}
                  height={plotH * r.accuracy!}
                  className={`eval-chart__bar eval-chart__bar--${i % 6}`}
                />
                {r.ci_low !== null && r.ci_high !== null && (
                  <g className="eval-chart__ci">
                    <line x1={cx} x2={cx} y1={y(r.ci_low)} y2={y(r.ci_high)} />
                    <line x1={cx - 8} x2={cx + 8} y1={y(r.ci_low)} y2={y(r.ci_low)} />
                    <line x1={cx - 8} x2={cx + 8} y1={y(r.ci_high)} y2={y(r.ci_high)} />
                  </g>
                )}
                {r.tokens_per_question !== null && (
                  <rect
                    x={cx + bw / 2 + 4}
                    y={yTok(r.tokens_per_question) - 5}
                    width={10}
                    height={10}
                    transform={`rotate(45 ${cx + bw / 2 + 9} ${yTok(r.tokens_per_question)})`}
                    className="eval-chart__tokens"
                  />
                )}
                <text x={cx} y={H - PAD.bottom + 16} textAnchor="middle" className="eval-chart__label">
                  {EVAL_METHOD_LABELS[r.method]}
                  {r.with_tools && (
                    <tspan x={cx} dy={14}>
                      + calculator
                    </tspan>
                  )}
                </text>
              </g>
            );
          })}
        </svg>
      )}
      {shown.length > 0 && (
        <figcaption className="eval-note">
          Bars: accuracy with its 95 % Wilson interval. Diamonds: tokens per question (right axis).
        </figcaption>
      )}
      <table className="eval-table" aria-label="Figures per method">
        <thead>
          <tr>
            <th scope="col">Method</th>
            <th scope="col">Done</th>
            <th scope="col">Accuracy</th>
            <th scope="col">95 % interval</th>
            <th scope="col">Tokens/q</th>
            <th scope="col">Seconds/q</th>
            <th scope="col">k</th>
          </tr>
        </thead>
        <tbody>
          {rows.map((r) => (
            <tr key={r.method} data-method={r.method}>
              <th scope="row">{r.label}</th>
              <td>{`${r.done}/${r.total}`}</td>
              <td data-figure="accuracy">{r.accuracy}</td>
              <td data-figure="ci">{r.ci}</td>
              <td data-figure="tokens">{r.tokensPerQuestion}</td>
              <td data-figure="seconds">{r.secondsPerQuestion}</td>
              <td data-figure="k">{r.k || '–'}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </figure>
  );
}
