// The standard panel's counters in its footer (docs/product.md#discussions-screens): messages (the one count:
// src/shared/messageCount.ts), arguments and papers; a zero argument or paper count is not shown.
import { messageCountLabel } from '../../../shared/messageCount';

export function FooterCounts({ counts }: { counts: { messages: number; arguments: number; papers: number } }) {
  return (
    <div className="panel-footer__counts" aria-label="Counts">
      <span data-testid="count-messages">{messageCountLabel(counts.messages)}</span>
      {/* Only counts that say something: '0 arguments' under turns that propose and accept reads as a contradiction
          (the arguments are the Reasoning Tree's, which only some kinds of discussion build). */}
      {counts.arguments > 0 && (
        <span data-testid="count-arguments">
          {counts.arguments} argument{counts.arguments === 1 ? '' : 's'} in the tree
        </span>
      )}
      {counts.papers > 0 && (
        <span data-testid="count-papers">
          {counts.papers} paper{counts.papers === 1 ? '' : 's'}
        </span>
      )}
    </div>
  );
}
