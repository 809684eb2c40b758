import WebSocket from 'ws';

// A recording client: one discussion socket (or several, when a case reconnects), every frame in and out with its
// time since the first socket opened, and the close codes.

export type Line = Record<string, unknown>;

export class Recording {
  readonly lines: Line[] = [];
  private t0 = 0;
  ws!: WebSocket;
  private waiters = new Set<() => void>();
  closed: number | null = null;
  /** When set, every audio frame is acknowledged after this many ms, as the panels do when playback ends. */
  ackAfterMs: number | null = null;

  constructor(
    readonly endpoint: string,
    readonly note: string,
  ) {}

  private t = () => Math.round(performance.now() - this.t0);
  get server() {
    return this.lines.filter((l) => l.dir === 'server').map((l) => l.data as Line);
  }

  async open(base: string, token: string) {
    const ws = new WebSocket(`${base}${this.endpoint}?token=${encodeURIComponent(token)}`);
    this.ws = ws;
    this.closed = null;
    ws.on('message', (d) => {
      const data = JSON.parse(String(d)) as Line;
      this.lines.push({ t: this.t(), dir: 'server', data });
      if (this.ackAfterMs !== null && (data.type === 'audio' || data.type === 'audio_message')) {
        const ack =
          data.type === 'audio'
            ? { type: 'status', status: 'played', audio_id: data.audio_id, agent_id: data.agent_id }
            : {
                type: 'audio_acknowledgment',
                audio_id: data.audio_id,
                status: 'played',
                timestamp: new Date().toISOString(),
              };
        setTimeout(() => ws.readyState === ws.OPEN && this.send(ack), this.ackAfterMs);
      }
      this.wake();
    });
    ws.on('close', (code) => {
      this.closed = code;
      this.lines.push({ t: this.t(), event: 'close', code });
      this.wake();
    });
    await new Promise<void>((resolve, reject) => {
      ws.once('open', () => {
        if (!this.t0) this.t0 = performance.now();
        resolve();
      });
      ws.once('error', reject);
    });
  }

  send(data: Line) {
    this.lines.push({ t: this.t(), dir: 'client', data });
    this.ws.send(JSON.stringify(data));
  }

  /** Sends raw text (a malformed frame), recorded as the string it was. */
  sendRaw(text: string) {
    this.lines.push({ t: this.t(), dir: 'client', data: text });
    this.ws.send(text);
  }

  private wake() {
    for (const w of this.waiters) w();
  }

  until(pred: () => boolean, ms = 60_000) {
    return new Promise<void>((resolve, reject) => {
      const check = () => {
        if (!pred()) return;
        clearTimeout(timer);
        this.waiters.delete(check);
        resolve();
      };
      const timer = setTimeout(() => {
        this.waiters.delete(check);
        reject(new Error(`${this.endpoint}: timed out; saw ${this.server.map((f) => f.type).join(',')}`));
      }, ms);
      this.waiters.add(check);
      check();
    });
  }

  count = (type: string) => this.server.filter((f) => f.type === type).length;
  untilClosed = () => this.until(() => this.closed !== null);

  toJsonl() {
    return (
      [{ endpoint: this.endpoint, note: this.note }, ...this.lines].map((l) => JSON.stringify(l)).join('\n') + '\n'
    );
  }
}
