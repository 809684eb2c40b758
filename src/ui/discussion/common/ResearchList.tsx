// The research papers found during a discussion (part 2 §3 'Research result'): title, authors, year, the first
// 200 characters of the abstract, link and source.
import type { Paper } from '../../../schemas/discussion';
import { ABSTRACT_PREVIEW_CHARS } from '../../../schemas/constants';
import { EmptyState } from './EmptyState';

const authorsOf = (a: Paper['authors']) => (Array.isArray(a) ? a.join(', ') : a);
const preview = (text: string) => (text.length > ABSTRACT_PREVIEW_CHARS ? `${text.slice(0, ABSTRACT_PREVIEW_CHARS)}…` : text);

export function ResearchList({ papers }: { papers: readonly Paper[] }) {
  if (papers.length === 0) {
    return (
      <EmptyState title="No research papers yet">
        Turn on research integration in Advanced Settings; papers the agents cite appear here.
      </EmptyState>
    );
  }
  return (
    <ol className="paper-list" aria-label="Research papers">
      {papers.map((p, i) => (
        <li key={`${p.url ?? p.title}-${i}`} className="paper">
          <h3 className="paper__title">
            {p.url ? (
              <a href={p.url} target="_blank" rel="noreferrer noopener">
                {p.title}
              </a>
            ) : (
              p.title
            )}
          </h3>
          <p className="paper__meta muted">
            {[authorsOf(p.authors), p.year].filter(Boolean).join(' · ')}
            {p.source && <span className="paper__source">{p.source}</span>}
          </p>
          {p.abstract && <p className="paper__abstract">{preview(p.abstract)}</p>}
        </li>
      ))}
    </ol>
  );
}
