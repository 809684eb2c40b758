import { onRoomMessage } from './room';
import { ENGINE_MESSAGES } from '../../schemas/messages';
import { NOTICE_ABOUTS } from '../../schemas/discussionFrames';
import { kvAppend, kvIndexOf, vecGet } from '../keyedVec';
import { onAttachment } from './attachments';
import { item, once, putItem, withRound } from './items';
import { deepEqual, frameKey, pct } from './keys';
import { onAudio, onDelta, onEnded, onFinalMessage, onSessionFrame, onStart } from './messages';
import { onPositionsFrame, withOutcome, withTurnPosition } from './positions';
import { consensusRowText, consensusWords, onArgument, onResearch, withResearchNotice } from './records';
import { onFormatFrame } from './formatRows';
import { onToolApproval, onToolCall, onToolResult } from './tools';
import { feedWith, type Feed, type FeedInput } from './types';

// Folding a frame into the feed: one switch over every frame type the panels' sockets send.

/** Everything a frame without an id turns into, once. */
export function keyedFrame(
  feed: Feed,
  frame: Exclude<
    FeedInput,
    {
      type:
        | 'agent_message'
        | 'text'
        | 'argument'
        | 'agent_message_start'
        | 'agent_message_delta'
        | 'human_message_local'
        | 'tool_approval_local'
        | 'room_message'
        | 'room_people';
    }
  >,
): Feed {
  const ts = frame.timestamp ?? null;
  const base = { agentId: null, agentName: null, timestamp: ts, source: frame };
  switch (frame.type) {
    case 'reasoning_stage': {
      const key = frameKey(frame);
      return once(feed, key, (f) => {
        const out = putItem(
          f,
          item({
            ...base,
            id: key,
            kind: 'stage',
            content: frame.description ?? `Stage: ${frame.stage}`,
            stage: frame.stage,
            round: frame.round,
          }),
        );
        return withRound(
          feedWith(out, {
            stage: {
              stage: frame.stage,
              round: frame.round ?? null,
              description: frame.description ?? null,
              timestamp: ts,
            },
          }),
          frame.round,
        );
      });
    }
    case 'acl_message':
    case 'request':
    case 'delegation':
      return onAttachment(feed, frame);
    case 'consensus_reached': {
      const key = frameKey(frame);
      return once(feed, key, (f) => {
        const words = consensusWords(f, frame);
        return putItem(
          feedWith(withOutcome(f, frame), {
            consensus: {
              consensus: frame.consensus,
              score: frame.score,
              halved: frame.consensus_halved ?? 0,
              reached: frame.reached,
              words,
              timestamp: ts,
            },
          }),
          item({
            ...base,
            id: key,
            kind: 'consensus',
            content: consensusRowText(words),
            confidence: frame.consensus.confidence,
          }),
        );
      });
    }
    case 'round_start': {
      const key = frameKey(frame);
      const content = `Round ${frame.round}${frame.max_rounds ? ` of ${frame.max_rounds}` : ''}${frame.stage ? ` · ${frame.stage}` : ''}`;
      return once(feed, key, (f) =>
        withRound(
          putItem(f, item({ ...base, id: key, kind: 'round', content, round: frame.round, stage: frame.stage })),
          frame.round,
          frame.max_rounds,
        ),
      );
    }
    case 'round_end': {
      const key = frameKey(frame);
      const content = `Round ${frame.round} ended${frame.agreement !== undefined ? ` · agreement ${pct(frame.agreement)}` : ''}`;
      return once(feed, key, (f) => {
        const out = withRound(
          putItem(f, item({ ...base, id: key, kind: 'round', content, round: frame.round })),
          frame.round,
        );
        const r = out.round;
        const ended = r.ended.includes(frame.round) ? r.ended : [...r.ended, frame.round].sort((a, b) => a - b);
        const agreement =
          frame.agreement !== undefined ? { ...r.agreement, [frame.round]: frame.agreement } : r.agreement;
        return ended === r.ended && agreement === r.agreement
          ? out
          : feedWith(out, { round: { ...r, ended, agreement } });
      });
    }
    case 'discussion_summary': {
      const s = frame.summary;
      const said =
        s.text ??
        `Summary${s.message_count !== undefined ? ` of ${s.message_count} messages` : ''}${s.consensus_score !== undefined ? ` · consensus ${pct(s.consensus_score)}` : ''}`;
      // Without a consensus row (it carries the sentence) the summary is the closing row that says the first vote's fate.
      const content = s.outcome && !feed.consensus && !said.includes(s.outcome) ? `${said}\n\n${s.outcome}.` : said;
      const withStats = (f: Feed) =>
        withOutcome(s.performance_metrics ? feedWith(f, { statistics: s.performance_metrics }) : f, s);
      // A streamed summary carries its stream's id: it replaces the placeholder in place (putItem ignores a replay).
      if (frame.id) {
        const pos = kvIndexOf(feed.items, frame.id);
        if (pos >= 0 && deepEqual(vecGet(feed.items.values, pos)!.source, frame)) return feed; // a replay
        return putItem(withStats(feed), item({ ...base, id: frame.id, kind: 'summary', content }));
      }
      const key = frameKey(frame);
      return once(feed, key, (f) => putItem(withStats(f), item({ ...base, id: key, kind: 'summary', content })));
    }
    case 'system': {
      if (frame.about === 'research_unavailable' || frame.content.startsWith(ENGINE_MESSAGES.researchUnavailable))
        return withResearchNotice(feed, frame.content);
      const key = frameKey(frame);
      return once(feed, key, (f) => putItem(f, item({ ...base, id: key, kind: 'system', content: frame.content })));
    }
    case 'tts_error': {
      const key = frameKey(frame);
      return once(feed, key, (f) =>
        putItem(
          f,
          item({
            ...base,
            id: key,
            kind: 'system',
            agentId: frame.agent_id ?? null,
            agentName: frame.agent_name,
            content: frame.error,
          }),
        ),
      );
    }
    case 'error': {
      if (frame.fatal) {
        return feed.session.fatalError === frame.message
          ? feed
          : feedWith(feed, { session: { ...feed.session, fatalError: frame.message } });
      }
      const key = frameKey(frame);
      // The standard panel's notices (a model that cannot call tools, the budget reached) are system lines, as on the
      // hybrid panel.
      const kind = NOTICE_ABOUTS.has(frame.about ?? '') ? 'system' : 'error';
      return once(feed, key, (f) => putItem(f, item({ ...base, id: key, kind, content: frame.message })));
    }
    case 'performance_metric': {
      const key = frameKey(frame);
      if (kvIndexOf(feed.metrics, key) >= 0) return feed;
      return feedWith(feed, {
        metrics: kvAppend(feed.metrics, key, { metric: frame.metric, value: frame.value, timestamp: ts }),
      });
    }
    case 'research_result':
    case 'research_results':
      return onResearch(feed, frame);
    case 'audio':
    case 'audio_message':
      return onAudio(feed, frame);
    case 'discussion_started':
    case 'discussion_initialized':
      return onSessionFrame(feed, frame);
    case 'discussion_ended':
      return onEnded(feed, frame);
    case 'agent_status':
    case 'tts_streaming_start':
    case 'tts_streaming_end':
      return feed;
    case 'floor':
    case 'floor_queue':
    case 'vote':
    case 'format_stage':
    case 'ranking':
    case 'debate_result':
    case 'format_note':
      return onFormatFrame(feed, frame);
    case 'positions':
      return onPositionsFrame(feed, frame);
    case 'tool_call':
      return onToolCall(feed, frame);
    case 'tool_result':
      return onToolResult(feed, frame);
    default: {
      const never: never = frame;
      void never;
      return feed; // a type the model does not know (cannot happen after the schemas): nothing to show
    }
  }
}

/** Folds one frame into the feed. Never throws for a frame that passed the schemas, whatever the order. */
export function applyFrame(feed: Feed, frame: FeedInput): Feed {
  switch (frame.type) {
    case 'agent_status':
      return feed; // the hottest frame: relayed by the machine, nothing to store
    case 'agent_message':
    case 'text':
      return withTurnPosition(onFinalMessage(feed, frame), frame);
    case 'agent_message_start':
      return onStart(feed, frame);
    case 'agent_message_delta':
      return onDelta(feed, frame);
    case 'argument':
      return withTurnPosition(onArgument(feed, frame), frame);
    case 'human_message_local':
      return putItem(
        feed,
        item({
          id: frame.id,
          kind: 'human',
          agentId: null,
          agentName: frame.author ?? null,
          content: frame.text,
          timestamp: frame.timestamp,
          source: frame,
        }),
      );
    case 'tool_approval_local':
      return onToolApproval(feed, frame);
    case 'room_message':
      return onRoomMessage(feed, frame);
    case 'room_people':
      return feed; // who is here now: the panel's context (src/model/room.ts), not the feed
    default:
      return keyedFrame(feed, frame);
  }
}

/** Folds many frames (replays, tests). */
export const applyFrames = (feed: Feed, frames: Iterable<FeedInput>): Feed => {
  let out = feed;
  for (const f of frames) out = applyFrame(out, f);
  return out;
};
