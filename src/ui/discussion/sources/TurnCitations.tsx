// A turn's citation chips, with the sources chart from the root (a chip opens its passage there).
import { useSelector } from '@xstate/react';
import { useContext } from 'react';
import { selectSources } from '../../../machines/app.selectors';
import type { FeedItem } from '../../../model/feed';
import { citationsOfItem } from '../../../model/sourcesList';
import { AppActorContext } from '../../AppContext';
import { CitationChips } from './CitationChips';

export function TurnCitations({ item }: { item: FeedItem }) {
  const app = useContext(AppActorContext);
  const sources = useSelector(app ?? undefined, (s) => (s ? (selectSources(s) ?? null) : null));
  const citations = citationsOfItem(item);
  if (!citations.length) return null;
  return <CitationChips citations={citations} sources={sources} />;
}
