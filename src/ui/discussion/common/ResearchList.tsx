// The research papers found during a discussion (docs/product.md#discussions-entities 'Research result'): title,
// authors, year, the first 200 characters of the abstract, link and source. Its empty state follows the research
// setting, and a failed search is one quiet notice here (feed.researchNotice), never a row of the discussion (issue
// 18). Above the papers: the person's sources the turns cited, and by whom (CitedSources).
import type { Paper } from '../../../schemas/discussion';
import { ABSTRACT_PREVIEW_CHARS } from '../../../schemas/constants';
import type { CitedSource } from '../../../model/citedSources';
import { CitedSources } from '../sources/CitedSources';
import { EmptyState } from './EmptyState';

const authorsOf = (a: Paper['authors']) => (Array.isArray(a) ? a.join(', ') : a);
const preview = (text: string) =>
  text.length > ABSTRACT_PREVIEW_CHARS ? `${text.slice(0, ABSTRACT_PREVIEW_CHARS)}…` : text;

export interface ResearchListProps {
  papers: readonly Paper[];
  /** Whether research is on for this discussion (null: not known, e.g. a stored discussion). */
  researchOn: boolean | null;
  /** Why the latest search failed, when one did. */
  notice?: string | null;
  /** Where research is turned on, in this panel's words ('Advanced Settings', 'the settings above'). */
  settingPlace?: string;
  /** The person's sources the turns cited (model/citedSources.ts). */
  cited?: readonly CitedSource[];
}

function Notice({ text }: { text: string }) {
  return (
    <p className="research-notice" role="status">
      <svg viewBox="0 0 16 16" width="14" height="14" aria-hidden="true">
        <circle cx="8" cy="8" r="6.5" fill="none" stroke="currentColor" strokeWidth="1.5" />
        <path d="M8 4.5v4M8 10.8v.2" stroke="currentColor" strokeWidth="1.6" strokeLinecap="round" />
      </svg>
      <span>{text}</span>
    </p>
  );
}

export function ResearchList({
  papers,
  researchOn,
  notice,
  settingPlace = 'Advanced Settings',
  cited = [],
}: ResearchListProps) {
  const citedList = <CitedSources cited={cited} />;
  if (papers.length === 0 && cited.length > 0) {
    // The sources are this tab's content: the papers' absence is one quiet line, not an empty state.
    return (
      <>
        {citedList}
        {notice && <Notice text={notice} />}
        <p className="research-papers-none">
          {researchOn === false ? `No research papers: research is off (${settingPlace}).` : 'No research papers.'}
        </p>
      </>
    );
  }
  if (papers.length === 0) {
    return (
      <>
        {notice && <Notice text={notice} />}
        {researchOn === false ? (
          <EmptyState title="Research is off">
            Turn on research in {settingPlace} to let the agents look up papers; the ones they find appear here.
          </EmptyState>
        ) : notice ? null : (
          <EmptyState title="No research papers yet">
            {researchOn
              ? 'Research is on: papers the agents find appear here as the discussion runs.'
              : 'Papers the agents found appear here.'}
          </EmptyState>
        )}
      </>
    );
  }
  return (
    <>
      {citedList}
      {notice && <Notice text={notice} />}
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
    </>
  );
}
