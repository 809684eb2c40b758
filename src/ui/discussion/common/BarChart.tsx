// A small horizontal bar chart as SVG (role="img" with a title), with the same figures as a table for screen
// readers. Values are drawn relative to the largest one.
export interface Bar {
  label: string;
  value: number;
  /** How the value is written next to its bar (defaults to the number). */
  text?: string;
}

const ROW = 22;
const LABEL_W = 120;
const WIDTH = 380;

export function BarChart({ title, bars, max }: { title: string; bars: Bar[]; max?: number }) {
  if (bars.length === 0) return null;
  const top = max ?? Math.max(...bars.map((b) => b.value), 1);
  const barSpace = WIDTH - LABEL_W - 44;
  const height = bars.length * ROW + 4;
  return (
    <figure className="chart">
      <figcaption className="chart__title">{title}</figcaption>
      <svg role="img" viewBox={`0 0 ${WIDTH} ${height}`} width="100%" height={height} aria-labelledby={undefined}>
        <title>{`${title}: ${bars.map((b) => `${b.label} ${b.text ?? b.value}`).join(', ')}`}</title>
        {bars.map((b, i) => {
          const w = top > 0 ? Math.max(2, (b.value / top) * barSpace) : 2;
          const y = i * ROW + 2;
          return (
            <g key={b.label}>
              <text x={LABEL_W - 6} y={y + 14} textAnchor="end" className="chart__label">
                {b.label.length > 18 ? `${b.label.slice(0, 17)}…` : b.label}
              </text>
              <rect x={LABEL_W} y={y + 3} width={w} height={ROW - 8} rx={3} className="chart__bar" />
              <text x={LABEL_W + w + 6} y={y + 14} className="chart__value">
                {b.text ?? b.value}
              </text>
            </g>
          );
        })}
      </svg>
      <table className="visually-hidden">
        <caption>{title}</caption>
        <tbody>
          {bars.map((b) => (
            <tr key={b.label}>
              <th scope="row">{b.label}</th>
              <td>{b.text ?? b.value}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </figure>
  );
}
