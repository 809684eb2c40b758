// The run badge both panels show beside their title (model/runBadge.ts says which word).
import { type RunBadgeFacts, runBadge } from '../../../model/runBadge';
import { Badge, type BadgeTone } from '../../common/Badge';

const TONE = { Live: 'success', Starting: 'warning', Finished: 'info', Idle: 'neutral' } as const satisfies Record<
  ReturnType<typeof runBadge>,
  BadgeTone
>;

export function RunBadge(facts: RunBadgeFacts) {
  const word = runBadge(facts);
  return (
    <Badge tone={TONE[word]} title="Discussion">
      {word}
    </Badge>
  );
}
