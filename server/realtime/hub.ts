import type { WebSocket } from 'ws';
import { liveServerFrame, type LiveServerFrame } from '../../src/schemas/liveUpdates';

export type LiveChannel = 'updates' | 'system';

/**
 * Who is listening to /ws/updates and /ws/system in this process, per user: a change is told only to its owner.
 * With more than one process (PostgreSQL), `relay` also hands each frame to the cluster bus (realtime/pgBus.ts),
 * which delivers the frames of the other processes here through `deliverLocal`.
 */
export class LiveHub {
  private sockets = new Map<string, Set<{ ws: WebSocket; channel: LiveChannel }>>();
  /** Set by the cluster bus: every frame broadcast here is also published to the other processes. */
  relay: ((userId: string, channel: LiveChannel, data: string) => void) | null = null;

  add(userId: string, channel: LiveChannel, ws: WebSocket) {
    const entry = { ws, channel };
    let set = this.sockets.get(userId);
    if (!set) this.sockets.set(userId, (set = new Set()));
    set.add(entry);
    ws.on('close', () => {
      set.delete(entry);
      if (!set.size) this.sockets.delete(userId);
    });
  }

  /** Sends to every socket of the user on the channel (updates by default). Frames are checked against the schema. */
  broadcast(userId: string, frame: LiveServerFrame, channel: LiveChannel = 'updates') {
    const data = JSON.stringify(liveServerFrame.parse(frame));
    this.deliverLocal(userId, channel, data);
    this.relay?.(userId, channel, data);
  }

  /** Sends an already checked, serialized frame to this process's sockets of the user on the channel. */
  deliverLocal(userId: string, channel: LiveChannel, data: string) {
    for (const { ws, channel: c } of this.sockets.get(userId) ?? []) {
      if (c === channel && ws.readyState === ws.OPEN) ws.send(data);
    }
  }

  /** Open live sockets of one user, or of everyone (the operator's figure) when no user is given. */
  count(userId?: string): number {
    if (userId !== undefined) return this.sockets.get(userId)?.size ?? 0;
    let n = 0;
    for (const set of this.sockets.values()) n += set.size;
    return n;
  }

  /** How many users have a live socket open (the operator's figure). */
  users(): number {
    return this.sockets.size;
  }
}
