import type { WebSocket } from 'ws';
import { CLOSE_NORMAL, CLOSE_SERVICE_RESTART } from '../../src/schemas/constants';
import type { AppContext } from '../context';
import type { Plan } from './plan';
import { restorable } from './chartVersion';
import {
  abandonDiscussion,
  claimExpiredRows,
  claimRow,
  framesAfter,
  leaseLeftMs,
  otherProcesses,
  ownership,
  releaseLeases,
  renewLeases,
  type ClaimedRow,
} from './leaseStore';
import { openSession } from './open';
import { liveDiscussionMachine } from './runtime';
import type { DiscussionSession, SessionLog } from './session';
import type { Sender } from '../rooms/control';
import { noteRemoteMember } from '../rooms/remote';

// Why this file: with DATABASE_URL several processes share one PostgreSQL, and a running discussion must outlive
// the process that runs it. Each discussion is owned by one process through a lease in its row (owner_id,
// lease_until), renewed here for all of this process's discussions in one UPDATE every third of the lease. The
// owner stores every frame together with the machine's persisted snapshot (frameLog.ts, durable mode).
//
// - Attach elsewhere: a client that reconnects with its session_id to a process that does not own the discussion
//   is served by a RemoteWatch: stored frames after resume_from are replayed, then each batch the owner stores
//   (announced on the bus, channel 'disc.frames', payload the seq) is read from discussion_frames and sent. Its
//   stop, human messages and audio acknowledgments go to the owner on the bus ('disc.inbox'), as does a regular
//   'attach' keep-alive (so the owner does not count the grace period down) and its close code.
//   Such a socket gets stored frames only: the token-by-token deltas of a turn stay with the owner's own socket.
// - Take-over: every quarter lease each process claims running discussions whose lease ran out (FOR UPDATE SKIP
//   LOCKED, so exactly one process gets each) — at once when a client of its own is waiting for one —, restores the machine from the snapshot with every stored frame, and
//   runs it on. What was in flight is redone: a model call (the turn is re-asked, under the same message id), a
//   speech synthesis, research; a pause or an audio acknowledgment that was awaited is treated as over. Nothing
//   the client saw is repeated or lost, because a frame is sent only after it is stored with its snapshot.
// - Lost lease: a renewal that no longer finds one of this process's discussions as its own (a stall longer than
//   the lease let another process take it) silences it here at once: two owners never both write.
// - Hand-over (SIGTERM with another process alive): discussions are silenced, their leases released, their
//   sockets cut; the client reconnects and another process takes them over at once.

const json = (v: unknown) => (typeof v === 'string' ? (JSON.parse(v) as unknown) : v);

/** What the cluster does with a frame or a socket that becomes this process's. */
export interface ClusterHandlers {
  onClientFrame(session: DiscussionSession, raw: string, member?: Sender): void;
  attachLocal(ws: WebSocket, session: DiscussionSession, resumeFrom: number): void;
}

export class ClusterEngine {
  private timers: NodeJS.Timeout[] = [];
  private readonly remote = new Map<string, Set<RemoteWatch>>();
  /** A claim attempt timed for the end of the lease of a discussion a socket here watches from afar. */
  private readonly leaseEnds = new Map<string, NodeJS.Timeout | 'reading'>();
  private renewing: Promise<unknown> = Promise.resolve();
  private claiming: Promise<unknown> | null = null;
  private stopped = false;

  constructor(
    private readonly ctx: AppContext,
    private readonly log: SessionLog & { info?(obj: object, msg: string): void },
  ) {
    ctx.engine.announceFrames = (discussionId, seq) => this.announceFrames(discussionId, seq);
  }

  get leaseMs() {
    return this.ctx.config.discussionLeaseMs;
  }

  /** PGlite (DISCUSSIONS_SURVIVE_RESTART): one process, so a discussion another instance owned is a dead one's. */
  private get alone() {
    return this.ctx.bus === null;
  }

  start(handlers: ClusterHandlers) {
    this.handlers = handlers;
    const bus = this.ctx.bus;
    bus?.on('disc.frames', (discussionId) => {
      for (const w of this.remote.get(discussionId) ?? []) w.pull();
    });
    bus?.on('disc.inbox', (discussionId, data) => this.onInbox(discussionId, data));
    const every = (ms: number, fn: () => void) => {
      const t = setInterval(fn, ms);
      t.unref();
      this.timers.push(t);
    };
    every(Math.max(50, Math.floor(this.leaseMs / 3)), () => void this.renew());
    // Whatever the lease, a dead owner's discussion is looked for at least every half second: a take-over then
    // comes within the lease and about half a second (a quarter of a 10 s lease would have added 2.5 s).
    every(Math.max(100, Math.min(500, Math.floor(this.leaseMs / 4))), () => void this.claimExpired());
    // What was running when this server (or a process before it) stopped: taken back now, not after a lease.
    void this.claimExpired();
    // A safety net for remote sockets (an announcement lost with a dropped listener) and their keep-alive.
    every(1_000, () => {
      for (const set of this.remote.values()) for (const w of set) w.tick();
    });
  }

  /** The owner stored frames up to `seq`: sockets on other processes read them. */
  announceFrames(discussionId: string, seq: number) {
    if (!this.stopped) this.ctx.bus?.publish(discussionId, 'disc.frames', String(seq));
  }

  sendToOwner(discussionId: string, msg: InboxMessage) {
    this.ctx.bus?.publish(discussionId, 'disc.inbox', JSON.stringify(msg));
  }

  private onInbox(discussionId: string, data: string) {
    const session = this.ctx.discussions.byId(discussionId);
    if (!session) return;
    let msg: InboxMessage;
    try {
      msg = JSON.parse(data) as InboxMessage;
    } catch {
      return;
    }
    // A room member's socket elsewhere (rooms/): present or gone, and frames checked against their role.
    if (msg.member && msg.kind !== 'frame')
      return void noteRemoteMember(this.ctx, session, msg.member, msg.kind === 'attach');
    if (msg.kind === 'attach') session.remoteAttached();
    else if (msg.kind === 'detach') session.remoteDetached(msg.code);
    else this.handlers?.onClientFrame(session, msg.raw, msg.member);
  }

  /** How client frames and handed-over sockets are handled: given at start, the same handlers a local socket has. */
  private handlers: ClusterHandlers | null = null;

  get attachLocal() {
    return this.handlers?.attachLocal ?? null;
  }

  private async renew() {
    this.renewing = (async () => {
      const mine = this.ctx.discussions.live();
      const held = await renewLeases(this.ctx.db, this.ctx.instanceId, this.leaseMs);
      for (const s of mine) {
        // Started after the UPDATE read its rows, or already another process's: only the latter is silenced.
        if (held.has(s.discussionId) || !s.isLive) continue;
        const row = await ownership(this.ctx.db, s.discussionId);
        if (row && row.status === 'running' && row.owner_id !== this.ctx.instanceId) {
          this.log.warn({ discussion: s.discussionId }, 'another process took this discussion over; it stops here');
          void s.relinquish();
        }
      }
    })().catch((err) => this.log.warn({ err }, 'could not renew the leases of running discussions'));
    await this.renewing;
  }

  /** Claims discussions whose owner stopped renewing, and runs them here. */
  claimExpired() {
    if (this.stopped || this.claiming) return this.claiming;
    this.claiming = (async () => {
      const rows = await claimExpiredRows(this.ctx.db, this.ctx.instanceId, this.leaseMs, this.alone);
      for (const row of rows)
        await this.resume(row).catch((err) =>
          this.log.error({ err, discussion: row.id }, 'could not take a discussion over'),
        );
    })()
      .catch((err) => this.log.warn({ err }, 'could not look for discussions to take over'))
      .finally(() => (this.claiming = null));
    return this.claiming;
  }

  /** Claims one discussion now if its lease ran out (a client is asking for it); the session, or null. */
  async claim(discussionId: string): Promise<DiscussionSession | null> {
    const row = await claimRow(this.ctx.db, this.ctx.instanceId, this.leaseMs, discussionId, this.alone);
    if (!row) return null;
    return this.resume(row);
  }

  /** A claimed discussion goes on here, through the same openSession as a new one (engine/open.ts). */
  private async resume(row: ClaimedRow): Promise<DiscussionSession | null> {
    const snapshot = json(row.snapshot) as { context?: { plan?: Plan } } | null;
    const plan = snapshot?.context?.plan;
    if (!snapshot || !plan) {
      // It died before its first frame was stored: there is nothing to continue from.
      await abandonDiscussion(this.ctx.db, row.id);
      return null;
    }
    const machine = liveDiscussionMachine(this.ctx, row.user_id, this.log);
    const restored = restorable(machine, snapshot);
    if (!restored) {
      // Written by another version of the engine's chart (a rolling upgrade): its stored frames stay readable in
      // History, but the state is not fed to a chart that may not have it.
      this.log.warn?.({ discussion: row.id }, 'a discussion stored by another engine version was not continued');
      await abandonDiscussion(this.ctx.db, row.id);
      return null;
    }
    const frames = await framesAfter(this.ctx.db, row.id);
    const session = openSession(this.ctx, {
      userId: row.user_id,
      discussionId: row.id,
      endpointPath: row.endpoint,
      plan,
      log: this.log,
      resume: { machine, snapshot: restored, frames: frames.map((f) => f.data) },
    });
    session.start();
    session.kick();
    this.log.info?.({ discussion: row.id, frames: frames.length }, 'took a discussion over');
    // Sockets of this process that watched it from afar now watch it here.
    const watchers = this.remote.get(row.id);
    if (watchers?.size) {
      for (const w of [...watchers]) w.handTo(session);
    } else session.startOrphaned();
    return session;
  }

  /** Serves a socket for a discussion another process owns (the owner's, or a room member's). */
  watchRemote(ws: WebSocket, discussionId: string, resumeFrom: number, member?: Sender) {
    const w = new RemoteWatch(this, this.ctx, this.log, ws, discussionId, resumeFrom, member, () => {
      const set = this.remote.get(discussionId);
      set?.delete(w);
      if (set && !set.size) {
        this.remote.delete(discussionId);
        const t = this.leaseEnds.get(discussionId);
        if (t && t !== 'reading') clearTimeout(t);
        this.leaseEnds.delete(discussionId);
      }
    });
    let set = this.remote.get(discussionId);
    if (!set) this.remote.set(discussionId, (set = new Set()));
    set.add(w);
    w.pull();
    this.sendToOwner(discussionId, { kind: 'attach', ...(member ? { member } : {}) });
    if (!this.leaseEnds.has(discussionId)) void this.claimAtLeaseEnd(discussionId);
    return w;
  }

  /**
   * A client is waiting here for a discussion another process owns: try to take it over the moment its lease ends
   * rather than at the next quarter-lease scan (the owner's renewals push the end on; each one is re-read).
   */
  private async claimAtLeaseEnd(discussionId: string, atLeastMs = 20) {
    if (this.stopped || !this.remote.has(discussionId)) return;
    this.leaseEnds.set(discussionId, 'reading');
    const left = await leaseLeftMs(this.ctx.db, discussionId).catch((err) => {
      this.log.warn({ err, discussion: discussionId }, 'could not read the lease of a discussion watched here');
      return undefined;
    });
    if (left === undefined || this.stopped || !this.remote.has(discussionId))
      return void this.leaseEnds.delete(discussionId);
    const t = setTimeout(
      () => {
        if (this.stopped || !this.remote.has(discussionId)) return void this.leaseEnds.delete(discussionId);
        void this.claim(discussionId)
          .catch((err) => {
            this.log.warn({ err, discussion: discussionId }, 'could not take over a discussion watched here');
            return null;
          })
          .then(() => {
            this.leaseEnds.delete(discussionId);
            // Still watched from afar: the owner renewed in time, or the claim failed (then not again at once).
            if (this.remote.has(discussionId)) void this.claimAtLeaseEnd(discussionId, 250);
          });
      },
      Math.max(atLeastMs, Math.min(this.leaseMs, left) + 20),
    );
    t.unref();
    this.leaseEnds.set(discussionId, t);
  }

  /** Is another server process alive on this database (its live-update listener connected)? */
  async othersAlive(): Promise<boolean> {
    if (this.alone) return false;
    return (await otherProcesses(this.ctx.db, this.ctx.instanceId)) > 0;
  }

  /**
   * SIGTERM with another process alive: each running discussion is silenced here after what it stored is stored,
   * its lease released, its socket cut (the client reconnects); another process takes it over at once.
   */
  async handOver(): Promise<number> {
    this.stopped = true;
    for (const t of this.timers) clearInterval(t);
    await this.claiming;
    const live = this.ctx.discussions.live();
    await Promise.all(live.map((s) => s.relinquish()));
    if (live.length) await releaseLeases(this.ctx.db, this.ctx.instanceId);
    await this.ctx.bus?.flush();
    return live.length;
  }

  async stop() {
    this.stopped = true;
    for (const t of this.timers) clearInterval(t);
    for (const t of this.leaseEnds.values()) if (t !== 'reading') clearTimeout(t);
    await this.claiming;
    await this.renewing;
    for (const set of this.remote.values()) for (const w of set) w.close();
  }
}

/** What a socket elsewhere tells the owner; `member` when it is a room member's, not the owner's. */
export type InboxMessage = ({ kind: 'frame'; raw: string } | { kind: 'attach' } | { kind: 'detach'; code: number }) & {
  member?: Sender;
};

/** A socket on this process watching a discussion that another process runs. */
class RemoteWatch {
  private sent: number;
  private pulling = false;
  private again = false;
  private done = false;
  private lastAttach = Date.now();

  constructor(
    private readonly cluster: ClusterEngine,
    private readonly ctx: AppContext,
    private readonly log: SessionLog,
    readonly ws: WebSocket,
    readonly discussionId: string,
    resumeFrom: number,
    private readonly member: Sender | undefined,
    private readonly forget: () => void,
  ) {
    this.sent = resumeFrom;
    ws.on('message', this.onMessage);
    ws.on('close', this.onClose);
  }

  private readonly onMessage = (d: unknown) => {
    if (!this.done) this.cluster.sendToOwner(this.discussionId, { kind: 'frame', raw: String(d), ...this.who });
  };

  private get who() {
    return this.member ? { member: this.member } : {};
  }

  private readonly onClose = (code: number) => {
    if (!this.done) this.cluster.sendToOwner(this.discussionId, { kind: 'detach', code, ...this.who });
    this.done = true;
    this.forget();
  };

  tick() {
    this.pull();
    if (Date.now() - this.lastAttach > 2_000) {
      this.lastAttach = Date.now();
      this.cluster.sendToOwner(this.discussionId, { kind: 'attach', ...this.who });
    }
  }

  pull() {
    if (this.done) return;
    if (this.pulling) return void (this.again = true);
    this.pulling = true;
    void (async () => {
      do {
        this.again = false;
        const rows = await framesAfter(this.ctx.db, this.discussionId, this.sent);
        for (const r of rows) {
          if (this.done || this.ws.readyState !== this.ws.OPEN) return;
          this.ws.send(r.data);
          this.sent = r.seq;
          if ((json(r.data) as { type?: string }).type === 'discussion_ended') {
            this.done = true;
            this.forget();
            this.ws.close(CLOSE_NORMAL, 'Discussion ended');
            return;
          }
        }
      } while (this.again && !this.done);
    })()
      // The next announcement or tick pulls again; what failed is said, with the discussion it was for.
      .catch((err) =>
        this.log.warn({ err, discussion: this.discussionId }, 'could not read the frames of a discussion watched here'),
      )
      .finally(() => (this.pulling = false));
  }

  /** This process took the discussion over: the socket becomes the session's own watcher. */
  handTo(session: DiscussionSession) {
    if (this.done) return;
    this.done = true;
    this.forget();
    this.ws.off('message', this.onMessage);
    this.ws.off('close', this.onClose);
    // A member joins again (room_join) and is served by the room here; the owner's socket becomes the session's.
    if (this.member) this.ws.close(CLOSE_SERVICE_RESTART, 'Discussion handed over; reconnect');
    else this.cluster.attachLocal?.(this.ws, session, this.sent);
  }

  close() {
    if (this.done) return;
    this.done = true;
    // The discussion goes on at its owner: the client re-attaches (through another process).
    this.ws.close(CLOSE_SERVICE_RESTART, 'Discussion handed over; reconnect');
  }
}
