import { describe, expect, it } from 'vitest';
import { applyFrame, emptyFeed, type FeedInput } from '../../src/model/feed';
import { endedStatusLine, OUTCOME_WORDS, runOutcome } from '../../src/model/runEnd';

const ended = (reason?: string) =>
  applyFrame(emptyFeed, { type: 'discussion_ended', ...(reason ? { reason } : {}), timestamp: 't' } as FeedInput);

describe('how a finished run is named', () => {
  it('a run the server finished is "finished"; a Stop (or a close with no end frame) is "stopped"; a failure says so', () => {
    expect(runOutcome(ended('completed'), false)).toBe('completed');
    expect(runOutcome(ended('consensus'), false)).toBe('completed');
    expect(runOutcome(ended('stopped'), false)).toBe('stopped');
    expect(runOutcome(ended('client_closed'), false)).toBe('stopped');
    expect(runOutcome(emptyFeed, false)).toBe('stopped');
    expect(runOutcome(ended('failed'), false)).toBe('failed');
    expect(runOutcome(ended('completed'), true)).toBe('failed');
    expect(OUTCOME_WORDS.stopped).toBe('Discussion stopped.');
  });

  it("the hybrid status line names the end in words, never the wire's reason token", () => {
    expect(endedStatusLine('consensus')).toBe('Discussion ended: the agents reached consensus');
    expect(endedStatusLine('completed')).toBe('Discussion ended');
    expect(endedStatusLine(null)).toBe('Discussion ended');
    expect(endedStatusLine('client_closed')).toBe('Discussion stopped');
    expect(endedStatusLine('error')).toBe('Discussion ended with an error');
  });
});
