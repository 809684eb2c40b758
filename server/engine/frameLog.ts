import type { AppContext } from '../context';
import { roomMessageFrame } from '../../src/schemas/rooms';
import type { Audience } from './plan';
import { schemaFor, type EngineFrame } from './frames';
import { observerOf } from './hooks';
import { FrameJournal, journalDir } from './journal';
import { FrameWriter } from './store';

// Every frame a discussion sends, stamped, checked, numbered and stored, and kept in memory so a client that
// dropped and comes back within the grace period is replayed everything it missed (watcher.ts). A streamed
// turn's agent_message_start / agent_message_delta frames are ephemeral: checked here but never stored, numbered or
// replayed.
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

/** Where frames go once they may reach the socket: stored ones with their seq, ephemeral ones with null. */
export interface FrameSink {
  pass(data: string, seq: number | null): void;
}

/** A person's message in a room (rooms/) is stored with the discussion's frames, in order, for every panel. */
const withRoomFrames = (panel: ReturnType<typeof schemaFor>) => ({
  safeParse: (v: unknown) =>
    (v as { type?: unknown } | null)?.type === 'room_message' ? roomMessageFrame.safeParse(v) : panel.safeParse(v),
});

export class FrameLog {
  /** Every frame sent so far, serialized; frame n has seq n + 1. */
  private readonly frames: string[] = [];
  private readonly schema;
  private readonly writer: FrameWriter;
  /** Durable mode: a stored frame reaches a socket only once it is in the database. */
  readonly storedFirst: boolean;
  /** The default mode: each frame is journaled before it is sent (journal.ts); null in durable mode. */
  private readonly journal: FrameJournal | null;
  private storeFailed = false;
  /** Durable mode: frames up to this seq are stored; later ones (and deltas behind them) wait in the outbox. */
  private storedSeq = 0;
  private readonly outbox: Array<{ data: string; seq: number | null; answeredAt?: number }> = [];
  private snapshotSeq = 0;
  private lastMessageAt: { id: string; at: string } | null = null;

  constructor(
    private readonly ctx: AppContext,
    private readonly discussionId: string,
    audience: Audience,
    private readonly log: SessionLog,
    private readonly sink: FrameSink,
    opts: { durable: boolean; restored?: string[] },
  ) {
    this.schema = withRoomFrames(schemaFor(audience));
    this.storedFirst = opts.durable;
    this.journal = opts.durable ? null : FrameJournal.open(journalDir(ctx.config.dataDir), discussionId, log);
    this.writer = new FrameWriter(
      ctx.db,
      discussionId,
      (e) => {
        this.storeFailed = true;
        log.error({ err: e, discussion: discussionId }, 'could not store a discussion frame');
      },
      this.storedFirst ? (seq) => this.onStored(seq) : undefined,
    );
    if (opts.restored) {
      this.frames.push(...opts.restored);
      this.storedSeq = this.snapshotSeq = this.frames.length;
    }
  }

  get count() {
    return this.frames.length;
  }

  /**
   * Stamps, checks, numbers and stores a frame and passes it on (durable mode: once stored). The stamped frame, or
   * null when it failed the check: a frame the panel could not read is an engine bug, logged and withheld.
   */
  append(frame: EngineFrame, answeredAt?: number) {
    const stamped = {
      ...frame,
      timestamp: ((frame as { timestamp?: string }).timestamp as string | undefined) ?? new Date().toISOString(),
    };
    // The hybrid panel pairs a clip with its message by the message's timestamp, which only the session knows.
    if (stamped.type === 'agent_message') this.lastMessageAt = { id: stamped.id, at: stamped.timestamp };
    if (stamped.type === 'audio_message' && stamped.message_id && stamped.message_id === this.lastMessageAt?.id)
      stamped.message_timestamp ??= this.lastMessageAt.at;
    const checked = this.schema.safeParse(stamped);
    if (!checked.success) {
      this.log.error({ frame: stamped, issues: checked.error.issues }, 'engine produced an invalid frame');
      return null;
    }
    const data = JSON.stringify(stamped);
    this.frames.push(data);
    const seq = this.frames.length;
    this.writer.push(seq, data);
    this.journal?.append(seq, data);
    if (this.storedFirst) {
      this.outbox.push({ data, seq, answeredAt });
    } else {
      this.sink.pass(data, seq);
      if (answeredAt !== undefined) observerOf(this.ctx)?.onAnswerOnWire?.(performance.now() - answeredAt);
    }
    return stamped;
  }

  /** A frame of the turn being streamed, stamped (its start) and checked; null (logged) when it failed the check. */
  ephemeral(frame: EngineFrame) {
    const out =
      frame.type === 'agent_message_start'
        ? { ...frame, timestamp: frame.timestamp ?? new Date().toISOString() }
        : frame;
    const checked = this.schema.safeParse(out);
    if (!checked.success) {
      this.log.error({ frame: out, issues: checked.error.issues }, 'engine produced an invalid frame');
      return null;
    }
    return { out, data: JSON.stringify(out) };
  }

  /** Passes an ephemeral frame on; durable mode: a delta never overtakes a stored frame still waiting for the database. */
  passEphemeral(data: string) {
    if (this.outbox.length) this.outbox.push({ data, seq: null });
    else this.sink.pass(data, null);
  }

  /** A frame for the watching socket alone (stamped now, checked), never stored or numbered; null when it fails the check. */
  unnumbered(frame: EngineFrame) {
    const stamped = { ...frame, timestamp: new Date().toISOString() };
    return this.schema.safeParse(stamped).success ? JSON.stringify(stamped) : null;
  }

  /** Hands the frames after `from` that may be sent already to `write`; frames not stored yet follow from the outbox. */
  replay(from: number, write: (data: string, seq: number) => void) {
    const upTo = this.storedFirst ? Math.min(this.storedSeq, this.frames.length) : this.frames.length;
    for (let i = from; i < upTo; i++) write(this.frames[i], i + 1);
  }

  /** Durable mode, after each macrostep that added stored frames: the snapshot to continue from, written with them. */
  snapshot(persisted: () => unknown) {
    if (!this.storedFirst || this.frames.length <= this.snapshotSeq) return;
    this.snapshotSeq = this.frames.length;
    this.writer.pushSnapshot(this.snapshotSeq, JSON.stringify(persisted()));
  }

  /** Resolves once everything appended so far is stored and passed on. */
  async flush() {
    await this.writer.flush();
    this.flushOutbox();
  }

  /** Everything is stored: the journal goes. A failed write keeps it, so the next start stores what this one could not. */
  retireJournal() {
    if (!this.storeFailed) this.journal?.discard();
  }

  /** The discussion was deleted: nothing is kept and nothing waits to be written. */
  forget() {
    this.frames.length = 0;
    this.outbox.length = 0;
    this.journal?.discard();
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
      this.sink.pass(data, seq);
    }
  }
}
