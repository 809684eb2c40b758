// A History row's (and an opened discussion's) continuation links, both ways: 'continued from <discussion> at turn
// N' to its source, and 'continued in <discussion> (from turn N)' to each discussion continued from it. Each opens
// the other discussion read-only.
import type { HistoryActorRef } from '../../../machines/history.machine';
import type { DiscussionSummary } from '../../../schemas/history';

export function ContinuationLinks({ d, history }: { d: DiscussionSummary; history: HistoryActorRef }) {
  const from = d.continued_from;
  const into = d.continued_in ?? [];
  if (!from && into.length === 0) return null;
  const open = (id: string) => history.send({ type: 'history.open', id });
  return (
    <p className="history-links">
      {from && (
        <span>
          continued from{' '}
          <button type="button" className="link-button" onClick={() => open(from.discussion_id)}>
            {from.topic}
          </button>{' '}
          at turn {from.turn}
        </span>
      )}
      {into.map((c) => (
        <span key={c.discussion_id}>
          continued in{' '}
          <button type="button" className="link-button" onClick={() => open(c.discussion_id)}>
            {c.topic}
          </button>{' '}
          (from turn {c.turn})
        </span>
      ))}
    </p>
  );
}
