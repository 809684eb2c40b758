import type pg from 'pg';
import type { Db } from '../db/db';
import type { LiveChannel, LiveHub } from './hub';

// Why this file: with DATABASE_URL several server processes share one PostgreSQL, and a change made through one
// process must reach the user's live sockets on every other. PostgreSQL is the broker (no home-made one):
//
// - Publish: each frame the hub broadcasts is queued; a writer inserts the queued frames into live_events in one
//   transaction that first takes an advisory lock (so ids commit in id order across every process) and ends with
//   NOTIFY agora_live '<newest id>' — a payload of a few bytes, never the frame (payloads over 8,000 bytes fail).
// - Receive: one dedicated client per process (not a pooled one, whose LISTEN would vanish with the connection)
//   LISTENs; a notification, a heartbeat tick or a reconnect all do the same thing: read live_events after the last
//   id this process has seen and deliver the rows of other processes to the local sockets. Because the table, not
//   the notification, is the source, a listener that was dropped (pg_terminate_backend, a database restart, a
//   network cut) catches up on reconnect and loses nothing (within the retention, EVENT_RETENTION_MINUTES).
// - Heartbeat: every heartbeatMs the listener runs SELECT 1 with a time-out; a failure, an 'error' or an 'end'
//   destroys the client and reconnects with a growing back-off (capped at 5 s).
// The frames a process publishes are delivered to its own sockets at once by the hub; its own rows are skipped here.

const CHANNEL = 'agora_live';
const WRITE_LOCK = 7_301_012;
const EVENT_RETENTION_MINUTES = 10;

export interface BusOptions {
  url: string;
  db: Db;
  hub: LiveHub;
  origin: string;
  heartbeatMs?: number;
  log?: { warn(obj: object, msg: string): void };
}

export class PgLiveBus {
  private client: pg.Client | null = null;
  private lastId = 0;
  private pulling: Promise<void> | null = null;
  private pullAgain = false;
  private queue: Array<[string, string, string]> = [];
  private writing: Promise<void> | null = null;
  private heartbeat: NodeJS.Timeout | null = null;
  private pruner: NodeJS.Timeout | null = null;
  private retry: NodeJS.Timeout | null = null;
  private backoffMs = 100;
  private closed = false;
  /** How many times the listener has (re)connected; the first connect counts as 1. */
  connects = 0;
  private readonly heartbeatMs: number;

  constructor(private readonly o: BusOptions) {
    this.heartbeatMs = o.heartbeatMs ?? 2_000;
  }

  async start() {
    const [row] = await this.o.db.query<{ id: string | null }>('SELECT max(id) AS id FROM live_events');
    this.lastId = Number(row?.id ?? 0);
    this.o.hub.relay = (userId, channel, data) => this.publish(userId, channel, data);
    await this.connect();
    this.heartbeat = setInterval(() => void this.beat(), this.heartbeatMs);
    this.heartbeat.unref();
    this.pruner = setInterval(() => void this.prune(), 60_000);
    this.pruner.unref();
  }

  get connected() {
    return this.client !== null;
  }

  /** Handlers of the bus's other channels (engine/cluster.ts): each row is told to every process, its own included. */
  private readonly handlers = new Map<string, (key: string, data: string, origin: string) => void>();

  on(channel: string, fn: (key: string, data: string, origin: string) => void) {
    this.handlers.set(channel, fn);
  }

  /** A live-update frame for a user's sockets (channel updates/system), or an event of another channel for a key. */
  publish(key: string, channel: string, data: string) {
    if (this.closed) return;
    this.queue.push([key, channel, data]);
    if (!this.writing) this.writing = this.write().finally(() => (this.writing = null));
  }

  /** Resolves once every queued frame is stored and notified. */
  async flush() {
    while (this.writing) await this.writing;
  }

  private async write() {
    while (this.queue.length) {
      const batch = this.queue.splice(0, 200);
      try {
        await this.o.db.transaction(async (tx) => {
          await tx.query('SELECT pg_advisory_xact_lock($1)', [WRITE_LOCK]);
          const rows = await tx.query<{ id: string }>(
            `INSERT INTO live_events (origin, user_id, channel, frame)
             SELECT $1, u, c, f FROM unnest($2::text[], $3::text[], $4::text[]) AS t(u, c, f) RETURNING id`,
            [this.o.origin, batch.map((b) => b[0]), batch.map((b) => b[1]), batch.map((b) => b[2])],
          );
          const newest = rows.reduce((m, r) => Math.max(m, Number(r.id)), 0);
          await tx.query('SELECT pg_notify($1, $2)', [CHANNEL, String(newest)]);
        });
      } catch (err) {
        // The local sockets already have these frames; the other processes miss them. Said, not hidden.
        this.o.log?.warn({ err, frames: batch.length }, 'could not publish live updates to the other processes');
      }
    }
  }

  private async connect() {
    if (this.closed) return;
    // Loaded here, not at the top: a PGlite server never needs the PostgreSQL client (a faster start).
    const { default: pgClient } = await import('pg');
    const client = new pgClient.Client({
      connectionString: this.o.url,
      application_name: `agora-live ${this.o.origin}`,
    });
    client.on('error', (err) => this.retire(client, err));
    client.on('end', () => this.retire(client, new Error('connection ended')));
    client.on('notification', () => this.pull());
    try {
      await client.connect();
      await client.query(`LISTEN ${CHANNEL}`);
    } catch (err) {
      this.retire(client, err);
      return;
    }
    if (this.closed || this.retired.has(client)) return void client.end().catch(() => {});
    this.client = client;
    this.connects++;
    this.backoffMs = 100;
    // Whatever was published while this process was not listening.
    this.pull();
  }

  private readonly retired = new WeakSet<pg.Client>();

  /** Drops a listener client once (error, end, failed heartbeat) and schedules a new one. */
  private retire(client: pg.Client, err: unknown) {
    if (this.retired.has(client)) return;
    this.retired.add(client);
    if (this.client === client) this.client = null;
    client.removeAllListeners('notification');
    client.removeAllListeners('end');
    client.on('error', () => {});
    void client.end().catch(() => {});
    if (this.closed) return;
    this.o.log?.warn({ err }, 'live-update listener lost its database connection; reconnecting');
    this.scheduleReconnect();
  }

  private scheduleReconnect() {
    if (this.closed || this.retry) return;
    const wait = this.backoffMs;
    this.backoffMs = Math.min(5_000, this.backoffMs * 2);
    this.retry = setTimeout(() => {
      this.retry = null;
      void this.connect();
    }, wait);
  }

  private async beat() {
    const client = this.client;
    if (!client) return;
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>(
      (_, reject) => (timer = setTimeout(() => reject(new Error('listener heartbeat timed out')), this.heartbeatMs)),
    );
    try {
      await Promise.race([client.query('SELECT 1'), timeout]);
      // A safety net as well: a notification that never came is read on the next beat.
      this.pull();
    } catch (err) {
      this.retire(client, err);
    } finally {
      clearTimeout(timer);
    }
  }

  /** Reads live_events after the last id seen and delivers the other processes' rows. Coalesced. */
  pull() {
    if (this.closed) return;
    if (this.pulling) {
      this.pullAgain = true;
      return;
    }
    this.pulling = (async () => {
      do {
        this.pullAgain = false;
        try {
          for (;;) {
            const rows = await this.o.db.query<{
              id: string;
              origin: string;
              user_id: string;
              channel: LiveChannel;
              frame: string;
            }>(
              // This process's own live-update rows are only counted (its sockets had them at once), not read.
              `SELECT id, origin, user_id, channel, CASE WHEN origin = $2 AND channel IN ('updates', 'system') THEN '' ELSE frame END AS frame
               FROM live_events WHERE id > $1 ORDER BY id LIMIT 500`,
              [this.lastId, this.o.origin],
            );
            for (const r of rows) {
              this.lastId = Number(r.id);
              const handler = this.handlers.get(r.channel);
              if (handler) handler(r.user_id, r.frame, r.origin);
              else if (r.origin !== this.o.origin) this.o.hub.deliverLocal(r.user_id, r.channel, r.frame);
            }
            if (rows.length < 500) break;
          }
        } catch (err) {
          if (!this.closed) this.o.log?.warn({ err }, 'could not read live updates of the other processes');
          break;
        }
      } while (this.pullAgain && !this.closed);
    })().finally(() => (this.pulling = null));
  }

  private async prune() {
    await this.o.db
      .query(`DELETE FROM live_events WHERE at < now() - interval '${EVENT_RETENTION_MINUTES} minutes'`)
      .catch(() => {});
  }

  async close() {
    await this.flush().catch(() => {});
    this.closed = true;
    this.o.hub.relay = null;
    for (const t of [this.heartbeat, this.pruner, this.retry]) if (t) clearInterval(t);
    const client = this.client;
    this.client = null;
    if (client) {
      this.retired.add(client);
      client.removeAllListeners('end');
      client.on('error', () => {});
      await client.end().catch(() => {});
    }
    await this.pulling;
  }
}
