// Each agent's position over time (Analytics, replay): a step chart per agent (the option's colour, confidence as
// height) drawn as SVG with role="img" and a title, the same figures in a table for screen readers, the first vote
// beside the final one, and how many changes came after an argument or followed the majority.
import { optionLabelOf, optionSlotOf, type PositionStory } from '../../../model/positionSelectors';
import type { Vote } from '../../../schemas/positions';

const W = 360;
const H = 28;
const pct = (v: number) => `${Math.round(v * 100)}%`;
const CHANGE_WORDS = { argument: 'changed after an argument', majority: 'followed the majority' } as const;

function VoteLine({ label, vote }: { label: string; vote: Vote | null }) {
  return (
    <div className="stat">
      <dt>{label}</dt>
      <dd>{vote ? `“${vote.label}” (${vote.holders} of ${vote.of})` : '—'}</dd>
    </div>
  );
}

export function PositionTimeline({ story }: { story: PositionStory }) {
  const turns = Math.max(1, story.turns);
  const x = (i: number) => (i / turns) * W;
  const leading = story.leaderId ? story.options.find((o) => o.id === story.leaderId) : undefined;
  return (
    <section className="positions" aria-label="Positions">
      <h3>Positions</h3>
      <dl className="stats-grid positions__votes">
        <VoteLine label="First vote" vote={story.firstVote} />
        <VoteLine
          label={story.finalVote ? 'Final vote' : 'Leading now'}
          vote={
            story.finalVote ??
            (leading
              ? {
                  option_id: leading.id,
                  label: leading.label,
                  holders: story.agents.filter((a) => a.steps.at(-1)?.optionId === leading.id).length,
                  of: story.agents.length,
                  score: story.score ?? 0,
                }
              : null)
          }
        />
        <div className="stat">
          <dt>Changed after an argument</dt>
          <dd>{story.changes.argument}</dd>
        </div>
        <div className="stat">
          <dt>Followed the majority</dt>
          <dd>{story.changes.majority}</dd>
        </div>
      </dl>
      {story.outcome && <p className="positions__outcome">{story.outcome}</p>}
      <ul className="positions__legend" aria-label="Options">
        {story.options.map((o) => (
          <li key={o.id}>
            <span className={`option-swatch option-${o.slot}`} aria-hidden="true" /> {o.label}
          </li>
        ))}
      </ul>
      <figure className="chart positions__chart">
        <figcaption className="chart__title">Position over time</figcaption>
        {story.agents.map((a) => {
          const summary = a.steps.map(
            (s) =>
              `${optionLabelOf(story, s.optionId)} ${pct(s.confidence)}${s.changed ? `, ${CHANGE_WORDS[s.changed]}` : ''}`,
          );
          return (
            <div className="positions__row" key={a.agentId}>
              <span className="positions__name">{a.name}</span>
              <svg role="img" viewBox={`0 0 ${W} ${H}`} width="100%" height={H} preserveAspectRatio="none">
                <title>{`${a.name}: ${summary.join('; ')}`}</title>
                <rect x={0} y={0} width={W} height={H} className="positions__track" />
                {a.steps.map((s, k) => {
                  const end = a.steps[k + 1]?.index ?? story.turns;
                  const h = Math.max(2, s.confidence * (H - 2));
                  return (
                    <rect
                      key={s.id}
                      x={x(s.index)}
                      y={H - h}
                      width={Math.max(1, x(end) - x(s.index))}
                      height={h}
                      className={`option-${optionSlotOf(story, s.optionId)}`}
                    />
                  );
                })}
                {a.steps
                  .filter((s) => s.changed)
                  .map((s) => (
                    <line
                      key={`c-${s.id}`}
                      x1={x(s.index)}
                      x2={x(s.index)}
                      y1={0}
                      y2={H}
                      className={`positions__change positions__change--${s.changed}`}
                    />
                  ))}
              </svg>
            </div>
          );
        })}
      </figure>
      <table className="visually-hidden">
        <caption>Position of each agent at each of its turns</caption>
        <thead>
          <tr>
            <th scope="col">Agent</th>
            <th scope="col">Turn</th>
            <th scope="col">Position</th>
            <th scope="col">Confidence</th>
            <th scope="col">Change</th>
          </tr>
        </thead>
        <tbody>
          {story.agents.flatMap((a) =>
            a.steps.map((s) => (
              <tr key={s.id}>
                <th scope="row">{a.name}</th>
                <td>{s.index + 1}</td>
                <td>{optionLabelOf(story, s.optionId)}</td>
                <td>{pct(s.confidence)}</td>
                <td>{s.changed ? CHANGE_WORDS[s.changed] : ''}</td>
              </tr>
            )),
          )}
        </tbody>
      </table>
    </section>
  );
}
