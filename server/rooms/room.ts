import type { WebSocket } from 'ws';
import { CLOSE_NORMAL, CLOSE_SERVICE_RESTART, CLOSE_TRY_AGAIN_LATER } from '../../src/schemas/constants';
import {
  CLOSE_REMOVED_FROM_ROOM,
  REMOVED_FROM_ROOM_TEXT,
  ROOM_SEATS,
  type MemberRole,
  type RoomPerson,
} from '../../src/schemas/rooms';
import type { Person } from './identity';

// The people in one running discussion besides the owner's own socket (engine/watcher.ts keeps that one): every
// member's sockets on this process, who is here, who types, who holds a seat. Every frame the discussion sends
// (stored or streamed) reaches each member socket, serialized once; a member that joins is replayed the stored
// frames first, then the turn being streamed, then live frames, in the same tick, so nothing falls in between.
// `room_people` goes to everyone, coalesced (PEOPLE_EVERY_MS), with at most PEOPLE_SHOWN people listed.

/** A member socket with more than this waiting unsent is too slow for the room: closed (1013), it may reconnect. */
const MAX_BUFFERED = 8 << 20;
/** `room_people` at most this often per hundred sockets, however many join, leave or type. */
const PEOPLE_EVERY_MS = 250;
/** How many people one `room_people` lists (the owner and participants first). */
export const PEOPLE_SHOWN = 100;
/** A 'typing' that is not renewed ends by itself after this long. */
const TYPING_MS = 6_000;

export type Seat = (typeof ROOM_SEATS)[number];

export interface RoomMember {
  person: Person;
  role: MemberRole;
  seats: Set<Seat>;
  typingUntil: number;
  /** Sockets of this person on this process, and keep-alives from other processes (engine/cluster.ts). */
  here: number;
  remoteUntil: number;
}

/** What the room needs of the discussion it belongs to (engine/session.ts). */
export interface RoomHost {
  readonly discussionId: string;
  readonly ownerId: string;
  /** The seats this discussion's format gives a person (today the owner's until given). */
  seatsOffered(): Seat[];
  replay(from: number, write: (data: string, seq: number) => void): void;
  /** The serialized start of the turn being streamed, for a socket that joins mid-stream. */
  streamingStart(): string | null;
  /** The room's people changed: say so to other processes' members (engine/cluster.ts); null without a bus. */
  publishPeople?: (people: RoomPerson[]) => void;
  /** An answer for a member whose socket is on another process. */
  publishTell?: (userId: string, frame: object) => void;
}

interface Socket {
  ws: WebSocket;
  userId: string;
}

export class Room {
  private readonly sockets = new Set<Socket>();
  readonly members = new Map<string, RoomMember>();
  owner: Person | null = null;
  /** Someone besides the owner has been in the room: from then on it speaks (room_people, room_message). */
  opened = false;
  private peopleTimer: NodeJS.Timeout | null = null;
  private closed = false;

  constructor(private readonly host: RoomHost) {}

  get size() {
    return this.sockets.size;
  }

  /** A member's socket joins: replayed from the start, then live. */
  join(ws: WebSocket, person: Person, role: MemberRole, seats: readonly string[]) {
    // The owner watching from a second socket is the owner, listed once, not a member.
    if (person.user_id !== this.host.ownerId) this.remember(person, role, seats).here++;
    const s: Socket = { ws, userId: person.user_id };
    this.host.replay(0, (data) => ws.readyState === ws.OPEN && ws.send(data));
    const start = this.host.streamingStart();
    if (start && ws.readyState === ws.OPEN) ws.send(start);
    this.sockets.add(s);
    ws.once('close', () => this.leave(s));
    this.changed();
  }

  /** A member or their role as the database has it (on a join here or from another process). */
  remember(person: Person, role: MemberRole, seats: readonly string[]): RoomMember {
    let m = this.members.get(person.user_id);
    this.opened = true;
    if (!m) {
      m = { person, role, seats: new Set(), typingUntil: 0, here: 0, remoteUntil: 0 };
      this.members.set(person.user_id, m);
    }
    m.person = person;
    m.role = role;
    m.seats = new Set(seats.filter((x): x is Seat => (ROOM_SEATS as readonly string[]).includes(x)));
    return m;
  }

  private leave(s: Socket) {
    if (!this.sockets.delete(s)) return;
    const m = this.members.get(s.userId);
    if (m) {
      m.here = Math.max(0, m.here - 1);
      if (!m.here) m.typingUntil = 0;
    }
    this.changed();
  }

  /** A member on another process is (still) here: said every few seconds; gone when it stops. */
  remoteHere(userId: string, here: boolean) {
    const m = this.members.get(userId);
    if (!m) return;
    const was = this.isHere(m);
    m.remoteUntil = here ? Date.now() + 6_000 : 0;
    if (was !== this.isHere(m)) this.changed();
  }

  private isHere(m: RoomMember) {
    return m.here > 0 || m.remoteUntil > Date.now();
  }

  /** Every frame of the discussion, to every member socket: serialized once. */
  pass(data: string) {
    if (!this.sockets.size) return;
    const bytes = Buffer.from(data);
    for (const s of this.sockets) this.write(s.ws, bytes);
  }

  private write(ws: WebSocket, bytes: Buffer) {
    if (ws.readyState !== ws.OPEN) return;
    if (ws.bufferedAmount > MAX_BUFFERED) return ws.close(CLOSE_TRY_AGAIN_LATER, 'Too slow to follow the room');
    ws.send(bytes, { binary: false });
  }

  /** A frame for one person's sockets here (an answer about their own message), never stored. */
  tellUser(userId: string, frame: object) {
    const data = Buffer.from(JSON.stringify({ ...frame, timestamp: new Date().toISOString() }));
    for (const s of this.sockets) if (s.userId === userId && s.ws.bufferedAmount < 1 << 20) this.write(s.ws, data);
    const m = this.members.get(userId);
    if (m && m.remoteUntil > Date.now()) this.host.publishTell?.(userId, frame);
  }

  typing(userId: string, typing: boolean) {
    const m = this.members.get(userId);
    const until = typing ? Date.now() + TYPING_MS : 0;
    if (m) {
      const was = m.typingUntil > Date.now();
      m.typingUntil = until;
      if (was !== typing) this.changed();
    } else if (userId === this.host.ownerId) {
      const was = this.ownerTypingUntil > Date.now();
      this.ownerTypingUntil = until;
      if (was !== typing) this.changed();
    }
    // A typing that is never ended ends by itself: the next list after it runs out says so.
    if (typing) setTimeout(() => this.changed(), TYPING_MS + 10).unref();
  }
  private ownerTypingUntil = 0;

  seatsOffered(): Seat[] {
    return this.host.seatsOffered();
  }

  /** Who holds a seat: a participant the owner gave it to, else the owner. */
  seatHolder(seat: Seat): string {
    for (const [id, m] of this.members) if (m.seats.has(seat)) return id;
    return this.host.ownerId;
  }

  setSeat(seat: Seat, userId: string) {
    for (const m of this.members.values()) m.seats.delete(seat);
    this.members.get(userId)?.seats.add(seat);
    this.changed();
  }

  /** The person is out: their sockets here closed with CLOSE_REMOVED_FROM_ROOM, their seats back to the owner. */
  remove(userId: string) {
    this.members.delete(userId);
    for (const s of [...this.sockets])
      if (s.userId === userId) {
        this.sockets.delete(s);
        if (s.ws.readyState === s.ws.OPEN) s.ws.close(CLOSE_REMOVED_FROM_ROOM, REMOVED_FROM_ROOM_TEXT);
      }
    this.changed();
  }

  /** The room as a list (the owner first, then participants, then watchers), at most PEOPLE_SHOWN long. */
  people(): RoomPerson[] {
    const now = Date.now();
    const offered = this.host.seatsOffered();
    const ownerSeats = offered.filter((seat) => this.seatHolder(seat) === this.host.ownerId);
    const list: RoomPerson[] = [];
    if (this.owner) list.push({ ...this.owner, role: 'owner', typing: this.ownerTypingUntil > now, seats: ownerSeats });
    const here = [...this.members.values()].filter((m) => this.isHere(m));
    here.sort((a, b) => (a.role === b.role ? 0 : a.role === 'participant' ? -1 : 1));
    for (const m of here) {
      if (list.length >= PEOPLE_SHOWN) break;
      list.push({
        ...m.person,
        role: m.role,
        typing: m.typingUntil > now,
        seats: offered.filter((seat) => m.seats.has(seat)),
      });
    }
    return list;
  }

  /** Something about the people changed: one `room_people` to everyone within PEOPLE_EVERY_MS. */
  changed() {
    if (this.peopleTimer || this.closed) return;
    // A list goes to every socket: a big room hears it less often, so its cost per second stays bounded.
    const every = PEOPLE_EVERY_MS * Math.max(1, Math.ceil(this.sockets.size / 100));
    this.peopleTimer = setTimeout(() => {
      this.peopleTimer = null;
      this.sendPeople();
    }, every);
    this.peopleTimer.unref();
  }

  /** The list to everyone here (and, through the host, to members on other processes). */
  sendPeople(people = this.people()) {
    // A discussion nobody joined has no room to speak of: its owner's socket is sent nothing new.
    if (this.closed || !this.opened) return;
    this.host.publishPeople?.(people);
    this.sendPeopleHere(people);
  }

  /** The list to the sockets here, each with its own `you`; `addOwner` for the owner's socket (engine/watcher.ts). */
  sendPeopleHere(people: RoomPerson[], toOwner?: (data: string) => void) {
    // The list is serialized once; only `you` differs per socket.
    const head = `{"type":"room_people","people":${JSON.stringify(people)},"you":`;
    const at = `,"timestamp":${JSON.stringify(new Date().toISOString())}}`;
    const byUser = new Map<string, Buffer>();
    for (const s of this.sockets) {
      let bytes = byUser.get(s.userId);
      if (!bytes) {
        const role = s.userId === this.host.ownerId ? 'owner' : (this.members.get(s.userId)?.role ?? 'watcher');
        bytes = Buffer.from(`${head}${JSON.stringify({ user_id: s.userId, role })}${at}`);
        byUser.set(s.userId, bytes);
      }
      this.write(s.ws, bytes);
    }
    (toOwner ?? this.toOwner)?.(`${head}${JSON.stringify({ user_id: this.host.ownerId, role: 'owner' })}${at}`);
  }

  /** How the owner's own socket (the watcher's) is sent the list. */
  toOwner: ((data: string) => void) | null = null;

  /** The discussion ended: every member socket closed once what was sent is sent. */
  close(reason: string, code = CLOSE_NORMAL) {
    this.closed = true;
    if (this.peopleTimer) clearTimeout(this.peopleTimer);
    for (const s of this.sockets) if (s.ws.readyState === s.ws.OPEN) s.ws.close(code, reason);
    this.sockets.clear();
  }

  /** Handed over to another process: the sockets reconnect (1012) and are served there. */
  terminate() {
    this.close('Discussion handed over; reconnect', CLOSE_SERVICE_RESTART);
  }
}
