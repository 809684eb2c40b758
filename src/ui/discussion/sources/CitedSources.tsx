// The Research tab's 'Sources cited': each of the person's documents the turns cited, who cited it and how many
// times, and its cited passages as buttons that open the passage dialog (the same one a citation chip opens).
import { useSelector } from '@xstate/react';
import { useContext, useId } from 'react';
import { selectSources } from '../../../machines/app.selectors';
import type { CitedSource } from '../../../model/citedSources';
import { AppActorContext } from '../../AppContext';

const times = (n: number) => (n === 1 ? 'once' : n === 2 ? 'twice' : `${n} times`);

export function CitedSources({ cited }: { cited: readonly CitedSource[] }) {
  const app = useContext(AppActorContext);
  const sources = useSelector(app ?? undefined, (s) => (s ? (selectSources(s) ?? null) : null));
  const headingId = useId();
  if (!cited.length) return null;
  return (
    <section className="cited-sources" aria-labelledby={headingId}>
      <h3 id={headingId} className="cited-sources__title">
        Sources cited
      </h3>
      <ul className="cited-sources__list">
        {cited.map((s) => (
          <li key={s.sourceId} className="cited-sources__item">
            <p className="cited-sources__name">
              <strong title={s.name}>{s.name}</strong>
              <span className="cited-sources__count"> · cited {times(s.count)}</span>
            </p>
            <p className="cited-sources__by">
              {s.by.map((b, i) => (
                <span key={b.agent}>
                  {i > 0 && ', '}
                  {b.agent} <span className="cited-sources__times">×{b.count}</span>
                </span>
              ))}
            </p>
            <ul className="citations" aria-label={`Passages of ${s.name} cited`}>
              {s.passages.map((p, i) => {
                const label = p.page ? `p. ${p.page}` : `Passage ${i + 1}`;
                return (
                  <li key={p.passageId}>
                    {sources ? (
                      <button
                        type="button"
                        className="citation-chip"
                        aria-label={`Open ${s.name} ${label}`}
                        title={p.quote || undefined}
                        onClick={() =>
                          sources.send({
                            type: 'sources.passage.open',
                            sourceId: s.sourceId,
                            passageId: p.passageId,
                            quote: p.quote,
                            sourceName: s.name,
                          })
                        }
                      >
                        {label}
                      </button>
                    ) : (
                      <span className="citation-chip" title={p.quote}>
                        {label}
                      </span>
                    )}
                  </li>
                );
              })}
            </ul>
          </li>
        ))}
      </ul>
    </section>
  );
}
