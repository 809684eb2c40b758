import type { WebSocket } from 'ws';
import { CLOSE_REMOVED_FROM_ROOM, REMOVED_FROM_ROOM_TEXT, type RoomPerson } from '../../src/schemas/rooms';
import type { AppContext } from '../context';
import type { Sender } from './control';

// Rooms across processes (PostgreSQL): the process that runs a discussion owns its room (rooms/room.ts); a member
// whose socket landed on another process is watched from there (engine/cluster.ts RemoteWatch: stored frames,
// room_message included, read from the database), and what is not stored — who is here, answers about their own
// frames, a removal — goes on the bus ('room.out', keyed by the discussion) to every process's member sockets.

declare module '../context' {
  interface AppContext {
    rooms: RoomsHub;
  }
}

export type RoomEvent = { people: RoomPerson[] } | { removed: string } | { tell: string; frame: object };

interface RemoteMember {
  ws: WebSocket;
  member: Sender;
}

export class RoomsHub {
  /** Member sockets on this process of discussions another process runs. */
  private readonly remote = new Map<string, Set<RemoteMember>>();

  constructor(private readonly ctx: AppContext) {
    ctx.bus?.on('room.out', (discussionId, data) => {
      try {
        this.apply(discussionId, JSON.parse(data) as RoomEvent);
      } catch {
        /* not ours */
      }
    });
  }

  /** Tells every process's member sockets of the discussion (this one's included, through the bus). */
  announce(discussionId: string, event: RoomEvent) {
    if (this.ctx.bus) this.ctx.bus.publish(discussionId, 'room.out', JSON.stringify(event));
  }

  /** A member's socket for a discussion another process runs. */
  watchRemote(ws: WebSocket, discussionId: string, member: Sender) {
    const cluster = this.ctx.discussions.cluster;
    if (!cluster) return;
    const entry: RemoteMember = { ws, member };
    let set = this.remote.get(discussionId);
    if (!set) this.remote.set(discussionId, (set = new Set()));
    set.add(entry);
    ws.once('close', () => {
      set.delete(entry);
      if (!set.size) this.remote.delete(discussionId);
    });
    cluster.watchRemote(ws, discussionId, 0, member);
  }

  private apply(discussionId: string, event: RoomEvent) {
    const set = this.remote.get(discussionId);
    if (!set) return;
    if ('people' in event) {
      const head = `{"type":"room_people","people":${JSON.stringify(event.people)},"you":`;
      const at = `,"timestamp":${JSON.stringify(new Date().toISOString())}}`;
      for (const { ws, member } of set)
        if (ws.readyState === ws.OPEN)
          ws.send(`${head}${JSON.stringify({ user_id: member.userId, role: member.role })}${at}`);
    } else if ('removed' in event) {
      for (const { ws, member } of [...set])
        if (member.userId === event.removed && ws.readyState === ws.OPEN)
          ws.close(CLOSE_REMOVED_FROM_ROOM, REMOVED_FROM_ROOM_TEXT);
    } else {
      const data = JSON.stringify({ ...event.frame, timestamp: new Date().toISOString() });
      for (const { ws, member } of set)
        if (member.userId === event.tell && ws.readyState === ws.OPEN && ws.bufferedAmount < 1 << 20) ws.send(data);
    }
  }
}
