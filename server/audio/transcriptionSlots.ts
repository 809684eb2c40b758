// How many transcriptions run at once (TRANSCRIBE_JOBS_PER_USER, TRANSCRIBE_JOBS): a converter and pocketsphinx
// take a core and memory each. A caller that may wait (a background batch) waits its turn; one that may not
// (an upload, Transcribe now) is told at once that the user already has one running.

interface Waiter {
  userId: string;
  go(): void;
}

export class TranscriptionSlots {
  private byUser = new Map<string, number>();
  private total = 0;
  private waiting: Waiter[] = [];

  constructor(
    private readonly perUser: number,
    private readonly max: number,
  ) {}

  private fits(userId: string) {
    return this.total < this.max && (this.byUser.get(userId) ?? 0) < this.perUser;
  }

  private take(userId: string) {
    this.total++;
    this.byUser.set(userId, (this.byUser.get(userId) ?? 0) + 1);
  }

  /** True when the user already runs as many as allowed (the caller that may not wait refuses). */
  userFull(userId: string) {
    return (this.byUser.get(userId) ?? 0) >= this.perUser;
  }

  /** Waits for a slot (or the signal); resolves with the function that gives it back. */
  acquire(userId: string, signal?: AbortSignal): Promise<() => void> {
    const release = () => {
      this.total--;
      const n = (this.byUser.get(userId) ?? 1) - 1;
      if (n > 0) this.byUser.set(userId, n);
      else this.byUser.delete(userId);
      this.wake();
    };
    if (this.fits(userId)) {
      this.take(userId);
      return Promise.resolve(once(release));
    }
    return new Promise((resolve, reject) => {
      const waiter: Waiter = {
        userId,
        go: () => {
          signal?.removeEventListener('abort', onAbort);
          this.take(userId);
          resolve(once(release));
        },
      };
      const onAbort = () => {
        this.waiting = this.waiting.filter((w) => w !== waiter);
        reject(signal?.reason instanceof Error ? signal.reason : new Error('The transcription was cancelled'));
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      this.waiting.push(waiter);
    });
  }

  private wake() {
    for (const w of [...this.waiting]) {
      if (!this.fits(w.userId)) continue;
      this.waiting = this.waiting.filter((x) => x !== w);
      w.go();
    }
  }
}

function once(f: () => void) {
  let done = false;
  return () => {
    if (done) return;
    done = true;
    f();
  };
}
