// 'Here now' (README 'Sharing and rooms'): everyone in a live discussion's room — name in their colour, role, a dot
// while they type — and, for the owner, per person: give the format's seat (moderator, judge) and Remove. It draws
// the panel's room and sends the panel's events; the chart decides what goes on the socket.
import type { MemberRole, RoomPerson, RoomSeat } from '../../schemas/rooms';
import type { RoomState } from '../../model/room';
import './rooms.css';

const ROLE_WORDS: Record<MemberRole, string> = { owner: 'owner', participant: 'participant', watcher: 'watcher' };
const SEAT_WORDS: Record<RoomSeat, string> = { moderator: 'moderator', judge: 'judge' };

export function HereNow({
  room,
  owner,
  seats,
  onSeat,
  onRemove,
}: {
  room: RoomState;
  /** The reader owns the room: each other person gets the owner's controls. */
  owner: boolean;
  /** The seats the discussion's format has for a person (empty when it has none). */
  seats: readonly RoomSeat[];
  onSeat: (seat: RoomSeat, userId: string) => void;
  onRemove: (userId: string) => void;
}) {
  const me = room.you?.user_id;
  return (
    <section className="here-now" aria-labelledby="here-now-title">
      <h3 id="here-now-title" className="here-now__title">
        Here now <span className="here-now__count">{room.people.length}</span>
      </h3>
      <ul className="here-now__list">
        {room.people.map((p) => (
          <Person
            key={p.user_id}
            person={p}
            isMe={p.user_id === me}
            controls={owner && p.user_id !== me && p.role !== 'owner'}
            seats={p.role === 'participant' ? seats : []}
            onSeat={onSeat}
            onRemove={onRemove}
          />
        ))}
      </ul>
    </section>
  );
}

function Person({
  person: p,
  isMe,
  controls,
  seats,
  onSeat,
  onRemove,
}: {
  person: RoomPerson;
  isMe: boolean;
  controls: boolean;
  seats: readonly RoomSeat[];
  onSeat: (seat: RoomSeat, userId: string) => void;
  onRemove: (userId: string) => void;
}) {
  const held = p.seats.map((s) => SEAT_WORDS[s]);
  return (
    <li className="here-now__person" style={{ ['--person-colour' as string]: p.colour }}>
      <span className="here-now__swatch" aria-hidden="true" />
      <span className="here-now__who">
        <span className="here-now__name">
          {p.display_name}
          {isMe && ' (you)'}
        </span>
        <span className="here-now__role">
          {ROLE_WORDS[p.role]}
          {held.length > 0 && `, ${held.join(' and ')}`}
        </span>
      </span>
      {p.typing && (
        <span className="here-now__typing" role="status" aria-label={`${p.display_name} is typing`} title="typing">
          <span aria-hidden="true">•••</span>
        </span>
      )}
      {controls && (
        <span className="here-now__actions">
          {seats
            .filter((s) => !p.seats.includes(s))
            .map((s) => (
              <button
                key={s}
                type="button"
                className="button button--small"
                aria-label={`Give the ${SEAT_WORDS[s]}'s seat to ${p.display_name}`}
                onClick={() => onSeat(s, p.user_id)}
              >
                Make {SEAT_WORDS[s]}
              </button>
            ))}
          <button
            type="button"
            className="button button--small button--ghost"
            aria-label={`Remove ${p.display_name}`}
            onClick={() => onRemove(p.user_id)}
          >
            Remove
          </button>
        </span>
      )}
    </li>
  );
}
