// A turn's citations as chips under its text ('S1 · report.pdf p. 12'): a verified one opens its passage in the
// passage dialog; an unverified label is shown as what it is (the model named a passage it was not given).
import type { SourcesActor } from '../../../machines/sources.machine';
import { citationLabel } from '../../../model/sourcesList';
import type { Citation } from '../../../schemas/sources';

export function CitationChips({
  citations,
  sources,
}: {
  citations: readonly Citation[];
  sources: SourcesActor | null;
}) {
  if (!citations.length) return null;
  return (
    <ul className="citations" aria-label="Citations">
      {citations.map((c) => (
        <li key={c.label}>
          {c.verified && c.source_id && c.passage_id && sources ? (
            <button
              type="button"
              className="citation-chip"
              onClick={() =>
                sources.send({
                  type: 'sources.passage.open',
                  sourceId: c.source_id!,
                  passageId: c.passage_id!,
                  quote: c.quote,
                  sourceName: c.source_name ?? 'Source',
                })
              }
            >
              {citationLabel(c)}
            </button>
          ) : (
            <span
              className={`citation-chip${c.verified ? '' : ' citation-chip--unverified'}`}
              title={c.verified ? c.quote : undefined}
            >
              {citationLabel(c)}
            </span>
          )}
        </li>
      ))}
    </ul>
  );
}
