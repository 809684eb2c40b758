import { createActor, type Actor } from 'xstate';
import type { WebSocket } from 'ws';
import { CLOSE_NORMAL } from '../../src/schemas/constants';
import type { AppContext } from '../context';
import { clampResume } from './configure';
import type { DiscussionMachine } from './discussion.machine';
import type { EngineEvent } from './discussion.machine';
import { finalIdOf, isEphemeral, schemaFor, type EngineFrame, type FrameOut } from './frames';
import { observerOf, tuningOf } from './hooks';
import type { Plan } from './plan';
import { FrameJournal, journalDir } from './journal';
import { finishDiscussion, FrameWriter, type DiscussionStatus } from './store';

// One running discussion and the socket (if any) that watches it. The session owns the machine actor, stamps,
// checks, numbers, stores and sends every frame, and keeps them all in memory so a client that dropped (1006)
// and reconnects within the grace period is sent everything it missed, in order, before the live frames.
// A streamed turn's agent_message_start / agent_message_delta frames are ephemeral: sent to the socket watching
// now, never stored, numbered or replayed; a socket that attaches mid-stream is sent the start of the message in
// progress and then its remaining deltas, and every socket gets the final frame (stored) with the same id.
//
// Sent means stored. Durable mode (more than one process, engine/cluster.ts, or DISCUSSIONS_SURVIVE_RESTART): every
// batch of frames is written together with the machine's persisted snapshot, and a stored frame reaches the socket
// only once it is stored (ephemeral deltas wait behind it), so a process that takes the discussion over (from the
// snapshot and the stored frames) neither repeats nor skips a frame. The single-process default sends at once and
// stores in the background, but journals each frame first in the same tick (journal.ts), so a kill never loses a
// frame a client was sent; waiting for the database here costs several times the throughput (discussions bench).

export interface SessionLog {
  warn(obj: object, msg: string): void;
  error(obj: object, msg: string): void;
}

interface Watcher {
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

export class DiscussionSession {
  readonly key: string;
  status: DiscussionStatus = 'running';
  /** Every frame sent so far, serialized; frame n has seq n + 1. */
  private readonly frames: string[] = [];
  private watcher: Watcher | null = null;
  /** Where the last socket stopped, for a reconnect that does not say. */
  private lastDelivered = 0;
  private graceTimer: NodeJS.Timeout | null = null;
  private readonly writer: FrameWriter;
  private readonly actor: Actor<DiscussionMachine>;
  private readonly schema;
  private finished: Promise<void> | null = null;
  private settle!: () => void;
  private readonly settled = new Promise<void>((resolve) => (this.settle = resolve));
  private stopReason: string | null = null;
  private onGone: (() => void) | null = null;
  private lastMessageAt: { id: string; at: string } | null = null;
  /** The message being streamed: its id and its serialized agent_message_start, for a socket that attaches mid-stream. */
  private streaming: { id: string; start: string; deltas: number } | null = null;
  private readonly durable: boolean;
  /** Durable mode: a stored frame reaches a socket only once it is in the database. */
  private readonly storedFirst: boolean;
  /** The default mode: each frame is journaled before it is sent (journal.ts); null in durable mode. */
  private readonly journal: FrameJournal | null;
  private storeFailed = false;
  /** Durable mode: frames up to this seq are stored; later ones (and deltas behind them) wait in the outbox. */
  private storedSeq = 0;
  private readonly outbox: Array<{ data: string; seq: number | null; answeredAt?: number }> = [];
  private snapshotSeq = 0;
  /** Lost the discussion (lease taken, or handed over at shutdown): nothing more is sent or stored. */
  private silenced = false;
  /** Human messages this discussion has taken (the MAX_HUMAN_MESSAGES_PER_DISCUSSION cap counts them). */
  humanMessages = 0;

  constructor(
    private readonly ctx: AppContext,
    readonly userId: string,
    readonly discussionId: string,
    readonly endpointPath: string,
    readonly plan: Plan,
    machine: DiscussionMachine,
    readonly log: SessionLog,
    opts: { speechAvailable: boolean; researchAvailable: boolean; durable?: boolean; restore?: { snapshot: unknown; frames: string[] } },
  ) {
    this.key = sessionKey(userId, plan.sessionId);
    this.schema = schemaFor(plan.audience);
    this.durable = !!opts.durable;
    this.storedFirst = this.durable;
    this.journal = this.durable ? null : FrameJournal.open(journalDir(ctx.config.dataDir), discussionId, log);
    this.writer = new FrameWriter(
      ctx.db,
      discussionId,
      (e) => {
        this.storeFailed = true;
        log.error({ err: e, discussion: discussionId }, 'could not store a discussion frame');
      },
      this.storedFirst ? (seq) => this.onStored(seq) : undefined,
    );
    if (opts.restore) {
      this.frames.push(...opts.restore.frames);
      this.storedSeq = this.snapshotSeq = this.frames.length;
    }
    const input = { plan, speechAvailable: opts.speechAvailable, researchAvailable: opts.researchAvailable };
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    this.actor = createActor(machine, opts.restore ? { input, snapshot: opts.restore.snapshot as any } : { input });
    this.actor.on('frame', (e: FrameOut) => (isEphemeral(e.frame) ? this.sendEphemeral(e.frame, e.tokenAt) : this.send(e.frame, e.answeredAt)));
    this.actor.subscribe({
      next: () => {
        // After each macrostep that added stored frames: the snapshot to continue from, written with them.
        if (!this.durable || this.silenced || this.frames.length <= this.snapshotSeq) return;
        this.snapshotSeq = this.frames.length;
        this.writer.pushSnapshot(this.snapshotSeq, JSON.stringify(this.actor.getPersistedSnapshot()));
      },
      complete: () => void this.finish(),
      error: (err) => {
        log.error({ err, discussion: discussionId }, 'discussion machine failed');
        this.send({ type: 'error', message: 'The discussion stopped because of an internal error.', fatal: true });
        this.send({ type: 'discussion_ended', reason: 'error', session_id: plan.sessionId });
        void this.finish();
      },
    });
  }

  get frameCount() {
    return this.frames.length;
  }

  get isLive() {
    return this.status === 'running';
  }

  start() {
    this.actor.start();
  }

  /** Called once the session may be forgotten (ended and no reconnect expected any more). */
  whenGone(fn: () => void) {
    this.onGone = fn;
  }

  /**
   * Attaches a socket: frames after `resumeFrom` (default: what the previous socket received) are replayed in
   * order, then live frames follow. A newer socket replaces an older one. An ended discussion replays and closes.
   */
  attach(ws: WebSocket, resumeFrom?: number) {
    if (this.graceTimer) clearTimeout(this.graceTimer);
    this.graceTimer = null;
    const previous = this.watcher;
    if (previous) {
      this.lastDelivered = previous.delivered;
      this.watcher = null;
      if (previous.ws.readyState === previous.ws.OPEN) previous.ws.close(CLOSE_NORMAL, 'Replaced by a newer connection');
    }
    const from = clampResume(resumeFrom ?? this.lastDelivered, this.frames.length);
    const w: Watcher = { ws, delivered: from, sent: from, pingQueued: false };
    ws.on('pong', (payload) => {
      const seq = Number(String(payload));
      if (Number.isInteger(seq) && seq > w.delivered && seq <= w.sent) w.delivered = seq;
    });
    this.watcher = w;
    // Frames not stored yet are in the outbox and follow when they are.
    const upTo = this.storedFirst ? Math.min(this.storedSeq, this.frames.length) : this.frames.length;
    for (let i = from; i < upTo; i++) this.write(w, this.frames[i], i + 1);
    if (this.streaming && ws.readyState === ws.OPEN) ws.send(this.streaming.start);
    if (!this.isLive) {
      if (this.storedFirst && this.finished) void this.finished.then(() => this.closeWatcher('Discussion ended'));
      else this.closeWatcher('Discussion ended');
    }
  }

  /** A socket on another process watches this discussion (said again every few seconds): no grace count-down. */
  remoteAttached() {
    if (!this.isLive || this.watcher) return;
    this.startGrace();
  }

  /** The other process's socket closed: 1000 stops the discussion, anything else starts the grace period. */
  remoteDetached(code: number) {
    if (!this.isLive || this.watcher) return;
    if (code === CLOSE_NORMAL) return this.stop('client_closed');
    this.startGrace();
  }

  /** Taken over with nobody watching yet: runs on for the grace period, waiting for its client. */
  startOrphaned() {
    if (!this.watcher) this.startGrace();
  }

  private startGrace() {
    if (this.graceTimer) clearTimeout(this.graceTimer);
    const { graceMs } = tuningOf(this.ctx);
    this.graceTimer = setTimeout(() => {
      this.graceTimer = null;
      if (!this.watcher && this.isLive) this.stop('abandoned');
    }, graceMs);
  }

  /**
   * This process no longer runs the discussion (its lease went to another process, or it hands it over at
   * shutdown): the machine stops without another frame sent or stored; the socket, if any, is cut (1006 for the
   * client, which reconnects and is served by the new owner). Resolves once what was stored before is stored.
   */
  async relinquish(): Promise<void> {
    if (this.silenced) return;
    this.silenced = true;
    if (this.graceTimer) clearTimeout(this.graceTimer);
    this.graceTimer = null;
    this.status = 'ended';
    this.actor.stop();
    await this.writer.flush();
    this.flushOutbox();
    this.watcher?.ws.terminate();
    this.watcher = null;
    this.settle();
    this.onGone?.();
  }

  /** The watching socket closed. A deliberate close (1000) stops the discussion; any other keeps it alive for the grace period. */
  detach(ws: WebSocket, code: number) {
    if (this.watcher?.ws !== ws) return;
    this.lastDelivered = this.watcher.delivered;
    this.watcher = null;
    if (!this.isLive) return;
    if (code === CLOSE_NORMAL) return this.stop('client_closed');
    this.startGrace();
  }

  deliver(event: EngineEvent) {
    if (this.isLive) this.actor.send(event);
  }

  /** A machine restored from its snapshot: timers that did not survive (a pause, an awaited acknowledgment) are over. */
  kick() {
    if (this.isLive) this.actor.send({ type: 'engine.resume' });
  }

  stop(reason: string) {
    if (!this.isLive) return;
    this.stopReason ??= reason;
    this.actor.send({ type: 'stop', reason });
  }

  /** Sends an out-of-band frame (a protocol error about the client's own message). */
  notify(frame: EngineFrame) {
    this.send(frame);
  }

  /**
   * Tells the watching socket something about its own frame (refused by flood control, or sent after the end)
   * without storing or numbering it: a flood of refused frames must not become a flood of stored ones.
   */
  tell(frame: EngineFrame) {
    const ws = this.watcher?.ws;
    if (!ws || ws.readyState !== ws.OPEN) return;
    // A client that floods and never reads gets no more answers once a megabyte waits for it.
    if (ws.bufferedAmount > 1 << 20) return;
    const stamped = { ...frame, timestamp: new Date().toISOString() };
    if (this.schema.safeParse(stamped).success) ws.send(JSON.stringify(stamped));
  }

  /**
   * The discussion was deleted: it leaves memory at once (no replay, no re-attach; a new discussion may reuse its
   * session_id) and anything it still had to write is dropped.
   */
  forget() {
    this.silenced = true;
    if (this.graceTimer) clearTimeout(this.graceTimer);
    this.graceTimer = null;
    if (this.isLive) this.actor.stop();
    this.status = this.status === 'running' ? 'ended' : this.status;
    const w = this.watcher;
    this.watcher = null;
    if (w && w.ws.readyState === w.ws.OPEN) w.ws.close(CLOSE_NORMAL, 'Discussion deleted');
    this.frames.length = 0;
    this.outbox.length = 0;
    this.journal?.discard();
    this.onGone?.();
  }

  /** Resolves when the discussion has ended and everything it sent is stored. */
  done(): Promise<void> {
    return this.settled;
  }

  private send(frame: EngineFrame, answeredAt?: number) {
    if (this.silenced) return;
    const stamped = { ...frame, timestamp: (frame.timestamp as string | undefined) ?? new Date().toISOString() };
    // The hybrid panel pairs a clip with its message by the message's timestamp, which only the session knows.
    if (stamped.type === 'agent_message') this.lastMessageAt = { id: stamped.id, at: stamped.timestamp };
    if (stamped.type === 'audio_message' && stamped.message_id && stamped.message_id === this.lastMessageAt?.id) stamped.message_timestamp ??= this.lastMessageAt.at;
    const checked = this.schema.safeParse(stamped);
    if (!checked.success) {
      // A frame the panel could not read is an engine bug: say so instead of sending it.
      this.log.error({ frame: stamped, issues: checked.error.issues }, 'engine produced an invalid frame');
      if (stamped.type !== 'error') this.send({ type: 'error', message: `Internal error: an invalid "${stamped.type}" frame was withheld.`, fatal: false });
      return;
    }
    const data = JSON.stringify(stamped);
    if (this.streaming && finalIdOf(stamped) === this.streaming.id) this.streaming = null;
    this.frames.push(data);
    const seq = this.frames.length;
    this.writer.push(seq, data);
    this.journal?.append(seq, data);
    const observer = observerOf(this.ctx);
    if (this.storedFirst) {
      this.outbox.push({ data, seq, answeredAt });
    } else {
      if (this.watcher) this.write(this.watcher, data, seq);
      if (answeredAt !== undefined && observer?.onAnswerOnWire) observer.onAnswerOnWire(performance.now() - answeredAt);
    }
    observer?.onFrame?.(this.plan.sessionId, stamped);
    if (stamped.type === 'agent_status') {
      this.ctx.hub.broadcast(this.userId, { type: 'agent_status_update', agent_id: stamped.agent_id, status: stamped.status, agent_name: stamped.agent_name });
    }
  }

  /** A frame of the turn being streamed: checked and sent live, not stored or numbered. */
  private sendEphemeral(frame: EngineFrame, tokenAt?: number) {
    if (this.silenced) return;
    const out = frame.type === 'agent_message_start' ? { ...frame, timestamp: frame.timestamp ?? new Date().toISOString() } : frame;
    const checked = this.schema.safeParse(out);
    if (!checked.success) {
      this.log.error({ frame: out, issues: checked.error.issues }, 'engine produced an invalid frame');
      return;
    }
    const data = JSON.stringify(out);
    if (out.type === 'agent_message_start') this.streaming = { id: out.id, start: data, deltas: 0 };
    const first = out.type === 'agent_message_delta' && this.streaming?.id === out.id && this.streaming.deltas++ === 0;
    const ws = this.watcher?.ws;
    // Durable mode: a delta never overtakes a stored frame that is still waiting for the database.
    if (this.outbox.length) this.outbox.push({ data, seq: null });
    else if (ws && ws.readyState === ws.OPEN) ws.send(data);
    const observer = observerOf(this.ctx);
    if (tokenAt !== undefined && observer?.onDeltaOnWire) observer.onDeltaOnWire(performance.now() - tokenAt, first);
    observer?.onFrame?.(this.plan.sessionId, out);
  }

  private onStored(seq: number) {
    if (seq > this.storedSeq) this.storedSeq = seq;
    this.flushOutbox();
    this.ctx.engine.announceFrames?.(this.discussionId, this.storedSeq);
  }

  private flushOutbox() {
    while (this.outbox.length && (this.outbox[0].seq === null || this.outbox[0].seq <= this.storedSeq)) {
      const { data, seq, answeredAt } = this.outbox.shift()!;
      // What the bench measures is the time to the wire, so a frame waiting for its write counts that wait.
      if (answeredAt !== undefined) observerOf(this.ctx)?.onAnswerOnWire?.(performance.now() - answeredAt);
      const w = this.watcher;
      if (!w) continue;
      if (seq !== null) this.write(w, data, seq);
      else if (w.ws.readyState === w.ws.OPEN) w.ws.send(data);
    }
  }

  private write(w: Watcher, data: string, seq: number) {
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

  private closeWatcher(reason: string) {
    const w = this.watcher;
    if (!w) return;
    // ws queues the close frame behind the data frames already sent, so nothing is cut off.
    if (w.ws.readyState === w.ws.OPEN) w.ws.close(CLOSE_NORMAL, reason);
  }

  private finish(): Promise<void> {
    if (this.finished) return this.finished;
    if (this.silenced) return (this.finished = Promise.resolve());
    this.status = this.stopReason === 'abandoned' ? 'abandoned' : 'ended';
    if (this.graceTimer) clearTimeout(this.graceTimer);
    if (!this.storedFirst) this.closeWatcher('Discussion ended');
    this.finished = (async () => {
      await this.writer.flush();
      if (this.storedFirst) {
        this.flushOutbox();
        this.closeWatcher('Discussion ended');
      }
      await finishDiscussion(this.ctx.db, this.discussionId, this.status === 'abandoned' ? 'abandoned' : 'ended').catch((err) =>
        this.log.error({ err, discussion: this.discussionId }, 'could not mark the discussion finished'),
      );
      // A failed write keeps the journal, so the next start stores what this one could not.
      if (!this.storeFailed && !this.silenced) this.journal?.discard();
      // Ended sessions stay reachable for a late reconnect for one grace period, then only the database has them.
      const t = setTimeout(() => this.onGone?.(), tuningOf(this.ctx).graceMs);
      t.unref();
      this.settle();
    })();
    return this.finished;
  }
}

export const sessionKey = (userId: string, sessionId: string) => `${userId}\u0000${sessionId}`;
