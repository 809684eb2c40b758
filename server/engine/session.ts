import { createActor, type Actor } from 'xstate';
import type { WebSocket } from 'ws';
import { CLOSE_NORMAL } from '../../src/schemas/constants';
import type { AppContext } from '../context';
import type { DiscussionMachine } from './discussion.machine';
import type { EngineEvent } from './discussion.machine';
import { versioned } from './chartVersion';
import { FrameLog, type SessionLog } from './frameLog';
import { isEphemeral, type EngineFrame, type FrameOut } from './frames';
import { observerOf, tuningOf } from './hooks';
import type { Plan } from './plan';
import { finishDiscussion, type DiscussionStatus } from './store';
import { Watcher } from './watcher';
import { Room } from '../rooms/room';
import { definitionOf } from './formats/registry';

// One running discussion. The session owns the machine actor and its lifecycle (running, stopped, handed over,
// deleted); every frame the machine emits goes through the frame log (frameLog.ts: stamped, numbered, stored,
// kept for replay) to the socket watching it (watcher.ts: delivery, resume, the grace period after a drop).

export type { SessionLog } from './frameLog';

export class DiscussionSession {
  readonly key: string;
  status: DiscussionStatus = 'running';
  private readonly frames: FrameLog;
  private readonly watcher: Watcher;
  /** The other people's sockets (rooms/room.ts): invited members who watch or take part. */
  readonly room: Room;
  private readonly actor: Actor<DiscussionMachine>;
  private finished: Promise<void> | null = null;
  private settle!: () => void;
  private readonly settled = new Promise<void>((resolve) => (this.settle = resolve));
  private stopReason: string | null = null;
  private onGone: (() => void) | null = null;
  /** Lost the discussion (lease taken, or handed over at shutdown): nothing more is sent or stored. */
  private silenced = false;
  /** Human messages this discussion has taken (the MAX_HUMAN_MESSAGES_PER_DISCUSSION cap counts them). */
  humanMessages = 0;
  /** In-process readers of the stored frames (a discussion asked for by /v1 or /mcp, with no socket). */
  private readonly readers = new Set<(frame: EngineFrame) => void>();

  constructor(
    private readonly ctx: AppContext,
    readonly userId: string,
    readonly discussionId: string,
    readonly endpointPath: string,
    readonly plan: Plan,
    machine: DiscussionMachine,
    readonly log: SessionLog,
    opts: {
      speechAvailable: boolean;
      researchAvailable: boolean;
      durable?: boolean;
      restore?: { snapshot: unknown; frames: string[] };
    },
  ) {
    this.key = sessionKey(userId, plan.sessionId);
    this.watcher = new Watcher(ctx, () => this.stop('abandoned'));
    this.room = new Room({
      discussionId,
      ownerId: userId,
      seatsOffered: () => {
        const f = plan.format;
        if (!f) return [];
        const d = definitionOf(f);
        return [
          ...(d.personGivesFloor(f) ? (['moderator'] as const) : []),
          ...(d.personJudges(f) ? (['judge'] as const) : []),
        ];
      },
      replay: (from, write) => this.frames.replay(from, write),
      streamingStart: () => this.watcher.streamingStart,
      // Members on other processes hear what is not stored over the bus (rooms/hub.ts).
      ...(ctx.bus
        ? {
            publishPeople: (people) => ctx.rooms?.announce(discussionId, { people }),
            publishTell: (to, frame) => ctx.rooms?.announce(discussionId, { tell: to, frame }),
          }
        : {}),
    });
    this.room.toOwner = (data) => this.watcher.tell(() => data);
    const sink = {
      pass: (data: string, seq: number | null) => {
        this.watcher.pass(data, seq);
        this.room.pass(data);
      },
    };
    this.frames = new FrameLog(ctx, discussionId, plan.audience, log, sink, {
      durable: !!opts.durable,
      restored: opts.restore?.frames,
    });
    const input = { plan, speechAvailable: opts.speechAvailable, researchAvailable: opts.researchAvailable };
    // biome-ignore lint/suspicious/noExplicitAny: a persisted snapshot is the machine's own, typed only as unknown where it is stored
    this.actor = createActor(machine, opts.restore ? { input, snapshot: opts.restore.snapshot as any } : { input });
    this.actor.on('frame', (e: FrameOut) =>
      isEphemeral(e.frame) ? this.sendEphemeral(e.frame, e.tokenAt) : this.send(e.frame, e.answeredAt),
    );
    this.actor.subscribe({
      next: () => {
        if (!this.silenced) this.frames.snapshot(() => versioned(machine, this.actor.getPersistedSnapshot()));
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
    return this.frames.count;
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
    this.watcher.attach(ws, resumeFrom, this.frames);
    if (!this.isLive) {
      if (this.frames.storedFirst && this.finished)
        void this.finished.then(() => this.watcher.close('Discussion ended'));
      else this.watcher.close('Discussion ended');
    }
  }

  /** A socket on another process watches this discussion (said again every few seconds): no grace count-down. */
  remoteAttached() {
    if (!this.isLive || this.watcher.attached) return;
    this.watcher.startGrace();
  }

  /** The other process's socket closed: 1000 stops the discussion, anything else starts the grace period. */
  remoteDetached(code: number) {
    if (!this.isLive || this.watcher.attached) return;
    if (code === CLOSE_NORMAL) return this.stop('client_closed');
    this.watcher.startGrace();
  }

  /** Taken over with nobody watching yet: runs on for the grace period, waiting for its client. */
  startOrphaned() {
    if (!this.watcher.attached) this.watcher.startGrace();
  }

  /**
   * This process no longer runs the discussion (its lease went to another process, or it hands it over at
   * shutdown): the machine stops without another frame sent or stored; the socket, if any, is cut (1006 for the
   * client, which reconnects and is served by the new owner). Resolves once what was stored before is stored.
   */
  async relinquish(): Promise<void> {
    if (this.silenced) return;
    this.silenced = true;
    this.watcher.stopGrace();
    this.status = 'ended';
    this.actor.stop();
    await this.frames.flush();
    this.watcher.terminate();
    this.room.terminate();
    this.settle();
    this.onGone?.();
  }

  /** The watching socket closed. A deliberate close (1000) stops the discussion; any other keeps it alive for the grace period. */
  detach(ws: WebSocket, code: number) {
    if (!this.watcher.detach(ws) || !this.isLive) return;
    if (code === CLOSE_NORMAL) return this.stop('client_closed');
    this.watcher.startGrace();
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
    this.watcher.tell(() => this.frames.unnumbered(frame));
  }

  /**
   * The discussion was deleted: it leaves memory at once (no replay, no re-attach; a new discussion may reuse its
   * session_id) and anything it still had to write is dropped.
   */
  forget() {
    this.silenced = true;
    this.watcher.stopGrace();
    if (this.isLive) this.actor.stop();
    this.status = this.status === 'running' ? 'ended' : this.status;
    this.watcher.release('Discussion deleted');
    this.room.close('Discussion deleted');
    this.frames.forget();
    this.onGone?.();
  }

  /** Calls `fn` with each frame stored from now on; returns how to stop. */
  read(fn: (frame: EngineFrame) => void): () => void {
    this.readers.add(fn);
    return () => this.readers.delete(fn);
  }

  /** Resolves when the discussion has ended and everything it sent is stored. */
  done(): Promise<void> {
    return this.settled;
  }

  private send(frame: EngineFrame, answeredAt?: number) {
    if (this.silenced) return;
    const stamped = this.frames.append(frame, answeredAt);
    if (!stamped) {
      if (frame.type !== 'error')
        this.send({
          type: 'error',
          message: `Internal error: an invalid "${frame.type}" frame was withheld.`,
          fatal: false,
        });
      return;
    }
    this.watcher.stored(stamped);
    for (const read of this.readers) read(stamped);
    observerOf(this.ctx)?.onFrame?.(this.plan.sessionId, stamped);
    if (stamped.type === 'agent_status') {
      this.ctx.hub.broadcast(this.userId, {
        type: 'agent_status_update',
        agent_id: stamped.agent_id,
        status: stamped.status,
        agent_name: stamped.agent_name,
      });
    }
  }

  /** A frame of the turn being streamed: checked and sent live, not stored or numbered. */
  private sendEphemeral(frame: EngineFrame, tokenAt?: number) {
    if (this.silenced) return;
    const checked = this.frames.ephemeral(frame);
    if (!checked) return;
    const first = this.watcher.streamed(checked.out, checked.data);
    this.frames.passEphemeral(checked.data);
    const observer = observerOf(this.ctx);
    if (tokenAt !== undefined && observer?.onDeltaOnWire) observer.onDeltaOnWire(performance.now() - tokenAt, first);
    observer?.onFrame?.(this.plan.sessionId, checked.out);
  }

  private closeAll(reason: string) {
    this.watcher.close(reason);
    this.room.close(reason);
  }

  private finish(): Promise<void> {
    if (this.finished) return this.finished;
    if (this.silenced) return (this.finished = Promise.resolve());
    this.status = this.stopReason === 'abandoned' ? 'abandoned' : 'ended';
    this.watcher.stopGrace();
    if (!this.frames.storedFirst) this.closeAll('Discussion ended');
    this.finished = (async () => {
      // Durable mode: the socket closes only after the last frames, which are sent once stored.
      await this.frames.flush();
      if (this.frames.storedFirst) this.closeAll('Discussion ended');
      await finishDiscussion(this.ctx.db, this.discussionId, this.status === 'abandoned' ? 'abandoned' : 'ended').catch(
        (err) => this.log.error({ err, discussion: this.discussionId }, 'could not mark the discussion finished'),
      );
      if (!this.silenced) this.frames.retireJournal();
      // Ended sessions stay reachable for a late reconnect for one grace period, then only the database has them.
      const t = setTimeout(() => this.onGone?.(), tuningOf(this.ctx).graceMs);
      t.unref();
      this.settle();
    })();
    return this.finished;
  }
}

export const sessionKey = (userId: string, sessionId: string) => `${userId}\u0000${sessionId}`;
