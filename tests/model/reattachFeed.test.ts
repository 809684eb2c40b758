// Re-attaching from History (hybrid.resume / discussion.resume): the panel starts from History's replay of the
// stored frames (streams still open closed as interrupted) and the server sends the frames after resume_from live,
// with their deltas. Whatever the cut, the panel must end with exactly the feed of a client that watched it all.
import { readdirSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { applyFrame, closeOpenStreams, emptyFeed, type Feed, type FeedInput } from '../../src/model/feed';
import { selectMessages } from '../../src/model/feedSelectors';
import { parseFeedFrame, serverData, TRANSCRIPTS } from './transcriptFrames';

// What the server stores (and History replays): every frame but the ephemeral deltas.
const isStored = (f: FeedInput) => f.type !== 'agent_message_delta';
const fold = (feed: Feed, frames: FeedInput[]) => frames.reduce(applyFrame, feed);
const shown = (feed: Feed) =>
  selectMessages(feed).map((m) => [m.id, m.kind, m.agentName, m.content, m.streaming ?? false, m.interrupted ?? false]);

const transcripts = readdirSync(TRANSCRIPTS).filter(
  (f) => /^(hybrid|enhanced|discuss|basic)-.*\.jsonl$/.test(f) && !f.includes('malformed'),
);

describe.each(transcripts)('re-attach %s', (name) => {
  const wire = serverData(name)
    .map(parseFeedFrame)
    .filter((f): f is FeedInput => f !== null);
  const watchedAll = fold(emptyFeed, wire);
  const stored = wire.filter(isStored);

  it('at every cut: History replay + the live rest = the feed of a client that watched it all', () => {
    for (let cut = 0; cut <= stored.length; cut++) {
      const history = closeOpenStreams(fold(emptyFeed, stored.slice(0, cut)));
      // The live rest: the wire from the first frame past the cut (deltas of a turn in flight included).
      let kept = 0;
      const from = wire.findIndex((f) => isStored(f) && ++kept > cut);
      const live = from < 0 ? [] : wire.slice(from);
      expect(shown(fold(history, live)), `cut at ${cut}`).toEqual(shown(watchedAll));
    }
  });
});
