import type { WebSocket } from 'ws';
import { CLOSE_NORMAL, CLOSE_SERVICE_RESTART } from '../../src/schemas/constants';
import type { AppContext } from '../context';
import { clampResume } from './configure';
import type { FrameLog, FrameSink } from './frameLog';
import { finalIdOf, type EngineFrame } from './frames';
import { tuningOf } from './hooks';

// The socket (if any) that watches a discussion. A client that dropped (1006) and reconnects within the grace
// period is sent everything it missed (from the frame log, frameLog.ts), in order, before the live frames. The
// ephemeral frames of a streamed turn go only to the socket watching now; a socket that attaches mid-stream is sent
// the start of the message in progress and then its remaining deltas, and every socket gets the final frame
// (stored) with the same id.

interface Attached {
  ws: WebSocket;
  /**
   * Frames the client has provably received: each burst of frames is followed by a ping carrying the last seq,
   * and the pong (which the browser sends by itself, after the frames, on the same ordered stream) confirms it.
   * Where a resume on the next socket starts by default: at least once, never a gap.
   */
  delivered: number;
  sent: number;
  pingQueued: boolean;
}

export class Watcher implements FrameSink {
  private current: Attached | null = null;
  /** Where the last socket stopped, for a reconnect that does not say. */
  private lastDelivered = 0;
  private graceTimer: NodeJS.Timeout | null = null;
  /** The message being streamed: its id and its serialized agent_message_start, for a socket that attaches mid-stream. */
  private streaming: { id: string; start: string; deltas: number } | null = null;

  constructor(
    private readonly ctx: AppContext,
    /** The grace period ran out with nobody watching. */
    private readonly onGraceOver: () => void,
  ) {}

  /** The serialized start of the message being streamed, if any (a room member joining mid-stream is sent it). */
  get streamingStart() {
    return this.streaming?.start ?? null;
  }

  get attached() {
    return this.current !== null;
  }

  /**
   * Attaches a socket: frames after `resumeFrom` (default: what the previous socket received) are replayed in
   * order, then live frames follow. A newer socket replaces an older one.
   */
  attach(ws: WebSocket, resumeFrom: number | undefined, frames: Pick<FrameLog, 'count' | 'replay'>) {
    this.stopGrace();
    const previous = this.current;
    if (previous) {
      this.lastDelivered = previous.delivered;
      this.current = null;
      if (previous.ws.readyState === previous.ws.OPEN)
        previous.ws.close(CLOSE_NORMAL, 'Replaced by a newer connection');
    }
    const from = clampResume(resumeFrom ?? this.lastDelivered, frames.count);
    const w: Attached = { ws, delivered: from, sent: from, pingQueued: false };
    ws.on('pong', (payload) => {
      const seq = Number(String(payload));
      if (Number.isInteger(seq) && seq > w.delivered && seq <= w.sent) w.delivered = seq;
    });
    this.current = w;
    frames.replay(from, (data, seq) => this.write(w, data, seq));
    if (this.streaming && ws.readyState === ws.OPEN) ws.send(this.streaming.start);
  }

  /** The socket closed; false when it was not (or no longer) the watching one. */
  detach(ws: WebSocket): boolean {
    if (this.current?.ws !== ws) return false;
    this.lastDelivered = this.current.delivered;
    this.current = null;
    return true;
  }

  startGrace() {
    if (this.graceTimer) clearTimeout(this.graceTimer);
    const { graceMs } = tuningOf(this.ctx);
    this.graceTimer = setTimeout(() => {
      this.graceTimer = null;
      if (!this.current) this.onGraceOver();
    }, graceMs);
  }

  stopGrace() {
    if (this.graceTimer) clearTimeout(this.graceTimer);
    this.graceTimer = null;
  }

  pass(data: string, seq: number | null) {
    const w = this.current;
    if (!w) return;
    if (seq !== null) this.write(w, data, seq);
    else if (w.ws.readyState === w.ws.OPEN) w.ws.send(data);
  }

  /** Notes a frame of the streamed turn; true for the message's first delta. */
  streamed(frame: EngineFrame, data: string): boolean {
    if (frame.type === 'agent_message_start') this.streaming = { id: frame.id, start: data, deltas: 0 };
    return frame.type === 'agent_message_delta' && this.streaming?.id === frame.id && this.streaming.deltas++ === 0;
  }

  /** A stored frame went out: if it is the final frame of the streamed message, the stream is over. */
  stored(frame: EngineFrame) {
    if (this.streaming && finalIdOf(frame) === this.streaming.id) this.streaming = null;
  }

  /** Sends a frame `encode` makes to the watching socket alone, unless nobody reads what was sent already. */
  tell(encode: () => string | null) {
    const ws = this.current?.ws;
    if (!ws || ws.readyState !== ws.OPEN) return;
    // A client that floods and never reads gets no more answers once a megabyte waits for it.
    if (ws.bufferedAmount > 1 << 20) return;
    const data = encode();
    if (data !== null) ws.send(data);
  }

  close(reason: string) {
    const w = this.current;
    if (!w) return;
    // ws queues the close frame behind the data frames already sent, so nothing is cut off.
    if (w.ws.readyState === w.ws.OPEN) w.ws.close(CLOSE_NORMAL, reason);
  }

  /** Closes the socket with 1012 (service restart: the client re-attaches, through another process) and lets it go. */
  terminate() {
    const ws = this.current?.ws;
    this.current = null;
    if (ws && ws.readyState === ws.OPEN) ws.close(CLOSE_SERVICE_RESTART, 'Discussion handed over; reconnect');
    else ws?.terminate();
  }

  /** Closes the socket and lets it go. */
  release(reason: string) {
    const w = this.current;
    this.current = null;
    if (w && w.ws.readyState === w.ws.OPEN) w.ws.close(CLOSE_NORMAL, reason);
  }

  private write(w: Attached, data: string, seq: number) {
    if (w.ws.readyState !== w.ws.OPEN) return;
    w.ws.send(data);
    w.sent = seq;
    if (w.pingQueued) return;
    w.pingQueued = true;
    setImmediate(() => {
      w.pingQueued = false;
      if (w.ws.readyState === w.ws.OPEN) w.ws.ping(String(w.sent));
    });
  }
}
