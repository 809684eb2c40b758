// Flood control for the discussion sockets: a token bucket per socket on every client frame, and one per user on
// human messages (shared by all of that user's sockets, so opening more sockets does not buy more messages).
// A refused frame is answered with an error frame that states the limit (discussionSockets.ts); nothing is queued.

export interface Rate {
  perSecond: number;
  burst: number;
}

/** A classic token bucket: `burst` tokens at most, refilled at `perSecond`; `now` is injectable for tests. */
export class TokenBucket {
  private tokens: number;
  private at: number;

  constructor(
    private readonly rate: Rate,
    private readonly now: () => number = () => performance.now(),
  ) {
    this.tokens = rate.burst;
    this.at = now();
  }

  /** Takes one token; false when the bucket is empty (the frame is refused). */
  take(): boolean {
    const t = this.now();
    this.tokens = Math.min(this.rate.burst, this.tokens + ((t - this.at) / 1000) * this.rate.perSecond);
    this.at = t;
    if (this.tokens < 1) return false;
    this.tokens -= 1;
    return true;
  }

  /** Full again: nothing taken within the time a refill needs, so it can be forgotten. */
  idle(): boolean {
    return this.tokens + ((this.now() - this.at) / 1000) * this.rate.perSecond >= this.rate.burst;
  }
}

/** How a limit reads in an error frame and the README: "2 per second (bursts of 5)". */
export const describeRate = (r: Rate) => `${r.perSecond} per second (bursts of ${r.burst})`;

/** One bucket per key (a user id), created on first use; full buckets are dropped now and then to bound the map. */
export class BucketMap {
  private readonly buckets = new Map<string, TokenBucket>();
  private sweeps = 0;

  constructor(
    private readonly rate: () => Rate,
    private readonly now?: () => number,
  ) {}

  take(key: string): boolean {
    if (++this.sweeps % 1000 === 0) for (const [k, b] of this.buckets) if (b.idle()) this.buckets.delete(k);
    let b = this.buckets.get(key);
    if (!b) this.buckets.set(key, (b = new TokenBucket(this.rate(), this.now)));
    return b.take();
  }
}
