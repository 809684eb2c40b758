// What the person does in a running format (docs/protocol.md#formats): a human moderator gives the floor, one
// button per agent (given while an agent speaks, it is queued: 'Dana speaks next', with Cancel); a human judge votes For or Against with a confidence; 'End discussion' ends any format but the
// round table with its summary. Every control is a plain button or slider, reachable with the keyboard.
import { useId, useState } from 'react';
import type { FloorQueue } from '../../../model/feed';
import { personSeat, type PersonSeat } from '../../../model/formats';
import type { FormatRequest } from '../../../schemas/format';
import type { PanelFormat } from '../../../schemas/settings';
import type { FormatAgent } from './FormatField';

export function FormatControls({
  format,
  agents,
  queued = null,
  onSend,
  roomSeat,
  mayEnd = true,
}: {
  format: PanelFormat;
  agents: FormatAgent[];
  /** The agent the person gave the floor to while another spoke, until its turn begins. */
  queued?: FloorQueue | null;
  onSend: (frame: FormatRequest) => void;
  /** In a room the seats follow the people (the owner may give one away): what this reader holds. */
  roomSeat?: PersonSeat | null;
  /** 'End discussion' is the owner's. */
  mayEnd?: boolean;
}) {
  const [confidence, setConfidence] = useState(70);
  const sliderId = useId();
  // The person's seat is read from the format the run sends for these agents (a role not taking part is theirs).
  const ownSeat = personSeat(
    format,
    agents.map((a) => a.id),
  );
  const seat = roomSeat === undefined ? ownSeat : roomSeat;
  if (!seat || (!mayEnd && !seat.givesFloor && !seat.judges && !queued)) return null;
  const humanModerator = seat.givesFloor;
  const humanJudge = seat.judges;
  return (
    <div className="format-controls" role="group" aria-label="Format controls">
      {queued && (
        <div className="format-controls__row format-controls__queue">
          <span role="status">{queued.agentName} speaks next</span>
          <button
            type="button"
            className="button button--small button--ghost"
            aria-label={`Cancel: ${queued.agentName} does not speak next`}
            onClick={() => onSend({ type: 'cancel_floor' })}
          >
            Cancel
          </button>
        </div>
      )}
      {humanModerator && (
        <div className="format-controls__row">
          {agents.map((a) => (
            <button
              key={a.id}
              type="button"
              className="button button--small"
              onClick={() => onSend({ type: 'give_floor', agent_id: a.id })}
            >
              Give the floor to {a.name}
            </button>
          ))}
        </div>
      )}
      {humanJudge && (
        <div className="format-controls__row">
          <span className="format-controls__label">Your vote as judge</span>
          <button
            type="button"
            className="button button--small"
            onClick={() => onSend({ type: 'judge_vote', side: 'for', confidence: confidence / 100 })}
          >
            For
          </button>
          <button
            type="button"
            className="button button--small"
            onClick={() => onSend({ type: 'judge_vote', side: 'against', confidence: confidence / 100 })}
          >
            Against
          </button>
          <label htmlFor={sliderId} className="format-controls__label">
            Confidence {confidence} %
          </label>
          <input
            id={sliderId}
            type="range"
            min={0}
            max={100}
            step={5}
            value={confidence}
            onChange={(e) => setConfidence(Number(e.target.value))}
          />
        </div>
      )}
      {mayEnd && (
        <div className="format-controls__row">
          <button type="button" className="button button--small" onClick={() => onSend({ type: 'end_discussion' })}>
            End discussion
          </button>
        </div>
      )}
    </div>
  );
}
