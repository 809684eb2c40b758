import type { ServerConfig } from '../config';
import type { ClusterEngine } from './cluster';
import { BucketMap } from './flood';
import type { DiscussionSession } from './session';

// The engine's per-server state, carried by the AppContext (`ctx.discussions`, and `app.discussions` once the engine
// plugin registered, engine/plugin.ts): the discussions this server is running (and, for one grace period, those
// that just ended), keyed by user and session id so two users' session ids never meet; the flood limits shared by
// all of a user's sockets; and the cluster engine when discussions outlive this process. The AppContext's type gets
// the field from here (module augmentation), so context.ts imports nothing of the engine's.

declare module '../context' {
  interface AppContext {
    discussions: Discussions;
  }
}

export class Discussions {
  /** By sessionKey(user, session id). */
  readonly sessions = new Map<string, DiscussionSession>();
  /** Human messages per user, across all of the user's sockets: HUMAN_MESSAGES_PER_SECOND, HUMAN_MESSAGE_BURST. */
  readonly humanBuckets: BucketMap;
  /**
   * The cluster engine (engine/cluster.ts) when several processes share PostgreSQL or discussions survive a
   * restart; null while discussions live in this process only. Set by the engine plugin as it starts.
   */
  cluster: ClusterEngine | null = null;

  constructor(config: ServerConfig) {
    this.humanBuckets = new BucketMap(() => ({
      perSecond: config.humanMessagesPerSecond,
      burst: config.humanMessageBurst,
    }));
  }

  /** Discussions this process is running for the user (the registry also holds just-ended ones for a grace period). */
  runningFor(userId: string): number {
    let n = 0;
    for (const s of this.sessions.values()) if (s.userId === userId && s.status === 'running') n++;
    return n;
  }

  /** A live discussion of this process by its id. */
  byId(discussionId: string): DiscussionSession | undefined {
    for (const s of this.sessions.values()) if (s.discussionId === discussionId && s.isLive) return s;
    return undefined;
  }

  /** How many discussions this process is running (for the operator's figures). */
  runningHere(): number {
    let n = 0;
    for (const s of this.sessions.values()) if (s.status === 'running') n++;
    return n;
  }

  /** A deleted discussion is gone from memory too: neither replayed nor re-attached by a late reconnect. */
  forget(userId: string, discussionId: string) {
    for (const s of this.sessions.values()) if (s.userId === userId && s.discussionId === discussionId) s.forget();
  }

  /** The discussions this process runs and has not handed on. */
  live(): DiscussionSession[] {
    return [...this.sessions.values()].filter((s) => s.isLive);
  }

  /** Stops every running discussion and waits (briefly) until their frames are stored. */
  async stopAll(reason: string, waitMs = 3_000) {
    const sessions = [...this.sessions.values()];
    for (const s of sessions) s.stop(reason);
    await Promise.race([Promise.all(sessions.map((s) => s.done())), new Promise((r) => setTimeout(r, waitMs).unref())]);
  }
}
