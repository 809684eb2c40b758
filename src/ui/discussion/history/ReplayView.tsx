// History → Replay: the stored discussion at one moment of its timeline. The feed, the positions and the consensus
// figure shown are the feed folded up to that turn (storedReplay.ts keeps one per turn), through the same
// selectors and rows the panels use. The Timeline slider (arrows step one turn, Home/End) and Play/Pause at 1×, 4×
// and 16× drive the replay actor (History's child; it reports the settled moment to the navigation actor, which keeps
// it in the address as #t=<turn>). Replay never plays speech.
//
// A step is the slider's and the state line's paint: the feed, the canvas and the chart follow the turn as a deferred
// value (ReplayMoment, memoised), so React draws them in a render of their own after the step's frame, interruptible
// by the next step, and a held arrow key or Play at 16× never waits on the feed.
import { useSelector } from '@xstate/react';
import { memo, useDeferredValue, useMemo, useState } from 'react';
import {
  selectReplayPlaying,
  selectReplaySpeed,
  selectReplayTurn,
  selectReplayTurns,
  type ReplayActorRef,
  type ReplaySpeed,
} from '../../../machines/replay.machine';
import type { Feed } from '../../../model/feed';
import { selectItem, selectMessageIds } from '../../../model/feedSelectors';
import { selectPositionNow, selectPositionStory } from '../../../model/positionSelectors';
import { evidenceNote } from '../../../model/outcomeWords';
import { REPLAY_SPEEDS } from '../../../schemas/constants';
import { EmptyState } from '../common/EmptyState';
import { FeedList } from '../common/FeedList';
import { FeedRowView } from '../common/FeedRow';
import { toolCallsOf } from '../../../model/feed';
import { PositionTimeline } from '../common/PositionTimeline';
import type { WorkspaceActorRef } from '../../../machines/workspace.machine';
import type { HistoryParticipant } from '../../../schemas/history';
import { CanvasPositions } from './CanvasPositions';

const pct = (v: number | null) => (v === null ? '—' : `${Math.round(v * 100)}%`);

/**
 * The message ids at a moment. Keys are only ever appended along one replay, so a moment's ids are the first
 * `size` ids of the whole record: a slice of one array, not a list built anew for each moment.
 */
function idsAt(moments: readonly Feed[], feed: Feed): readonly string[] {
  const all = selectMessageIds(moments[moments.length - 1]);
  const size = feed.items.keys.length;
  return size === all.length ? all : all.slice(0, size);
}

/** The moment's feed, canvas marks and position chart: drawn from the deferred turn, so a step does not wait on them. */
const ReplayMoment = memo(function ReplayMoment({
  moments,
  turn,
  workspace,
  participants,
}: {
  moments: readonly Feed[];
  turn: number;
  workspace?: WorkspaceActorRef;
  participants?: readonly HistoryParticipant[];
}) {
  const feed = moments[Math.min(turn, moments.length - 1)];
  const ids = useMemo(() => idsAt(moments, feed), [moments, feed]);
  // The whole position chart only while its section is open: a step then costs a slice and a few lookups.
  const [chartOpen, setChartOpen] = useState(false);
  const story = chartOpen ? selectPositionStory(feed) : null;
  return (
    <>
      <CanvasPositions workspace={workspace} feed={feed} />
      {/* The turn drawn, for the replay bench (the feed follows the Timeline a render later). */}
      <div className="replay__feed" data-turn={turn}>
        <FeedList
          ids={ids}
          label="Messages up to this moment"
          renderRow={(id) => {
            const item = selectItem(feed, id);
            return item ? (
              <FeedRowView
                item={item}
                workspace={workspace}
                participants={participants}
                calls={toolCallsOf(feed, id)}
              />
            ) : null;
          }}
          empty={
            <EmptyState title="Before the first turn">
              Press Play or move the Timeline to watch the discussion unfold.
            </EmptyState>
          }
        />
      </div>
      {feed.positions.options.length > 0 && (
        <details className="replay__positions" onToggle={(e) => setChartOpen(e.currentTarget.open)}>
          <summary>Positions so far</summary>
          {story && <PositionTimeline story={story} />}
        </details>
      )}
    </>
  );
});

export function ReplayView({
  replay,
  moments,
  onContinue,
  workspace,
  participants,
}: {
  replay: ReplayActorRef;
  moments: readonly Feed[];
  /** The canvas shows the positions at the moment shown. */
  workspace?: WorkspaceActorRef;
  /** The agents as they were when it started: each speaker in the colour the live feed gave it. */
  participants?: readonly HistoryParticipant[];
  /** 'Continue from here': a new discussion whose agents hear this one up to the turn shown. */
  onContinue?: (turn: number) => void;
}) {
  const turn = useSelector(replay, selectReplayTurn);
  const turns = useSelector(replay, selectReplayTurns);
  const playing = useSelector(replay, selectReplayPlaying);
  const speed = useSelector(replay, selectReplaySpeed);
  const shownTurn = useDeferredValue(turn);
  const now = selectPositionNow(moments[Math.min(turn, moments.length - 1)]);
  return (
    <div className="replay">
      <div className="replay__state" aria-live="polite">
        <span>
          Turn {turn} of {turns}
        </span>
        <span>
          Consensus {pct(now.score)}
          {now.score !== null && evidenceNote(now.halved) ? ` — ${evidenceNote(now.halved)}` : ''}
        </span>
        {now.holders.length > 0 && (
          <span className="replay__holders">{now.holders.map((c) => `${c.name}: ${c.label}`).join(' · ')}</span>
        )}
      </div>
      <ReplayMoment moments={moments} turn={shownTurn} workspace={workspace} participants={participants} />
      <div className="replay__controls">
        <button
          type="button"
          className="button button--small button--primary"
          onClick={() => replay.send({ type: playing ? 'replay.pause' : 'replay.play' })}
        >
          {playing ? 'Pause' : 'Play'}
        </button>
        <div className="replay__speeds" role="group" aria-label="Speed">
          {REPLAY_SPEEDS.map((s: ReplaySpeed) => (
            <button
              key={s}
              type="button"
              className="button button--small"
              aria-pressed={speed === s}
              onClick={() => replay.send({ type: 'replay.speed', speed: s })}
            >
              {s}×
            </button>
          ))}
        </div>
        <label className="replay__timeline">
          <span>Timeline</span>
          <input
            type="range"
            min={0}
            max={turns}
            step={1}
            value={turn}
            aria-valuetext={`Turn ${turn} of ${turns}`}
            onChange={(e) => replay.send({ type: 'replay.seek', turn: Number(e.target.value) })}
          />
        </label>
        {onContinue && (
          <button
            type="button"
            className="button button--small replay__continue"
            disabled={turn < 1}
            title={
              turn < 1 ? 'Move the Timeline to a turn first' : `A new discussion that hears this one up to turn ${turn}`
            }
            onClick={() => {
              replay.send({ type: 'replay.pause' });
              onContinue(turn);
            }}
          >
            Continue from here
          </button>
        )}
      </div>
    </div>
  );
}
