import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { chmod, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import http from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { collect } from './harness';
import { postgresUnavailableReason, required, startPostgres, type PgCluster } from './postgresCluster';
import { call, freePort, startServerProcess, type ServerProcess } from './serverProcess';

// The deployment recipe in deploy/ (README 'Running more than one process'), run as written: Debian's nginx with
// deploy/agora.nginx.conf (only its ports changed) in front of two server processes on one PostgreSQL. Sign-in,
// a discussion and its take-over when the process running it is killed all go through nginx.

const ROOT = path.resolve(import.meta.dirname, '../..');
const NGINX = ['/usr/sbin/nginx', '/usr/bin/nginx'].find((p) => existsSync(p));
// REQUIRE_NGINX=1 (CI) makes a missing nginx fail the run rather than skip this test; REQUIRE_POSTGRES likewise.
const reason =
  required(NGINX ? null : 'nginx is not installed (apt-get install nginx)', 'REQUIRE_NGINX') ??
  postgresUnavailableReason();

/** The shipped site file with the test's ports, inside a minimal main configuration of its own. */
async function nginxConfig(dir: string, listen: number, upstreams: [number, number]) {
  let site = await readFile(path.join(ROOT, 'deploy/agora.nginx.conf'), 'utf8');
  site = site
    .replace('server 127.0.0.1:8001', `server 127.0.0.1:${upstreams[0]}`)
    .replace('server 127.0.0.1:8002', `server 127.0.0.1:${upstreams[1]}`)
    .replace(/^\s*listen \[::\]:80;\n/m, '')
    .replace(/listen 80;/, `listen 127.0.0.1:${listen};`)
    .replace('/var/log/nginx/agora.access.log', path.join(dir, 'access.log'));
  // The recipe's own access log stays on: the test reads it for credentials.
  expect(site).toContain(path.join(dir, 'access.log'));
  expect(site).toContain(`127.0.0.1:${upstreams[1]}`);
  await writeFile(path.join(dir, 'agora.conf'), site);
  const temp = ['client_body', 'proxy', 'fastcgi', 'uwsgi', 'scgi']
    .map((k) => `  ${k}_temp_path ${path.join(dir, k)};`)
    .join('\n');
  await writeFile(
    path.join(dir, 'nginx.conf'),
    `worker_processes 1;\nerror_log ${path.join(dir, 'error.log')} warn;\npid ${path.join(dir, 'nginx.pid')};\nevents { worker_connections 256; }\n` +
      `http {\n${temp}\n  include ${path.join(dir, 'agora.conf')};\n}\n`,
  );
}

/** A GET from a chosen loopback source address (127.0.0.2 is a client that is not this machine's 127.0.0.1). */
const getFrom = (url: string, localAddress: string, headers: Record<string, string> = {}) =>
  new Promise<{ status: number; body: any }>((resolve, reject) => {
    http
      .get(url, { localAddress, headers }, (res) => {
        let text = '';
        res.on('data', (d) => (text += String(d)));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: JSON.parse(text) }));
      })
      .on('error', reject);
  });

describe.skipIf(reason !== null)(
  `deploy/: nginx in front of two processes${reason ? ` (skipped: ${reason})` : ''}`,
  () => {
    let cluster: PgCluster;
    let dir: string;
    let env: Record<string, string>;
    const procs: ServerProcess[] = [];
    let nginx: ChildProcess;
    let front: string;
    let admin: pg.Client;
    /** Each process's instance id, as its live-update listener names itself in PostgreSQL. */
    let firstInstance: string;

    beforeAll(async () => {
      cluster = await startPostgres();
      dir = await mkdtemp(path.join(tmpdir(), 'agora-deploy-'));
      // Workers run as `nobody` when nginx is started by root: its temporary folders must be theirs to write.
      await chmod(dir, 0o777);
      env = {
        DATABASE_URL: cluster.url,
        MEDIA_DIR: path.join(dir, 'media'),
        TRUST_PROXY: '127.0.0.1',
        OPERATOR_TOKEN: 'deploy-operator',
        CLUSTER_HEARTBEAT_MS: '300',
        DISCUSSION_LEASE_MS: '1500',
        OFFLINE_MODEL_TOKENS_PER_SECOND: '40',
      };
      admin = new pg.Client({ connectionString: cluster.url });
      await admin.connect();
      procs.push(await startServerProcess({ ...env, DATA_DIR: path.join(dir, 'a') }));
      const listeners = await admin.query(
        "SELECT substr(application_name, 12) AS id FROM pg_stat_activity WHERE application_name LIKE 'agora-live %'",
      );
      expect(listeners.rows).toHaveLength(1);
      firstInstance = listeners.rows[0].id;
      procs.push(await startServerProcess({ ...env, DATA_DIR: path.join(dir, 'b') }));
      const port = await freePort();
      const conf = path.join(dir, 'nginx');
      await mkdir(conf);
      await chmod(conf, 0o777);
      await nginxConfig(conf, port, procs.map((p) => Number(new URL(p.url).port)) as [number, number]);
      const check = spawnSync(NGINX!, ['-t', '-p', conf, '-c', path.join(conf, 'nginx.conf')], { encoding: 'utf8' });
      expect(check.status, check.stderr).toBe(0);
      nginx = spawn(NGINX!, ['-p', conf, '-c', path.join(conf, 'nginx.conf'), '-g', 'daemon off;'], {
        stdio: 'ignore',
      });
      front = `http://127.0.0.1:${port}`;
      const deadline = Date.now() + 15_000;
      for (;;) {
        const ok = await fetch(`${front}/health`).then(
          (r) => r.status === 200,
          () => false,
        );
        if (ok) break;
        if (Date.now() > deadline)
          throw new Error(
            `nginx did not answer: ${await readFile(path.join(conf, 'error.log'), 'utf8').catch(() => '')}`,
          );
        await new Promise((r) => setTimeout(r, 100));
      }
    }, 120_000);

    afterAll(async () => {
      if (nginx && nginx.exitCode === null) {
        const gone = new Promise((r) => nginx.once('exit', r));
        nginx.kill('SIGQUIT');
        await gone;
      }
      await admin?.end().catch(() => {});
      for (const p of procs) await p.kill();
      await cluster?.stop();
      if (dir) await rm(dir, { recursive: true, force: true });
    }, 30_000);

    it('passes the real client address with TRUST_PROXY, and a forged one is not believed', async () => {
      // Through the proxy the operator token still opens /health's details; a caller without it gets states only,
      // wherever it claims to come from.
      const operator = await getFrom(`${front}/health`, '127.0.0.1', { authorization: 'Bearer deploy-operator' });
      expect(operator.body.components.database.provider).toBe('postgres');
      const remote = await getFrom(`${front}/health`, '127.0.0.2', { 'x-forwarded-for': '127.0.0.1' });
      expect(remote.status).toBe(200);
      expect(remote.body.components.database).toEqual({ status: 'ok' });
    });

    it('signs in, runs a discussion and keeps it going when the process running it is killed', async () => {
      const email = `deploy${Date.now()}@example.com`;
      expect((await call(front, 'POST', '/auth/register', undefined, { email, password: 'secret-pass' })).status).toBe(
        200,
      );
      const login = await call(front, 'POST', '/auth/login', undefined, { email, password: 'secret-pass' });
      expect(login.status).toBe(200);
      const token = login.body.access_token as string;
      const ids: string[] = [];
      for (const name of ['Ada', 'Bo'])
        ids.push(
          (
            await call(front, 'POST', '/agents/', token, {
              name,
              role: 'Researcher',
              prompt: 'Study it.',
              model: 'offline',
            })
          ).body.id,
        );
      const config = {
        agent_ids: ids,
        session_id: `session_${Date.now()}_nginx`,
        context: 'Does a discussion survive its server behind a proxy?',
        turns: 6,
      };
      const kept = (frames: any[]) =>
        frames.filter((f) => f.type !== 'agent_message_start' && f.type !== 'agent_message_delta');
      // A browser's socket: the page's Origin is the proxy's address, which the server must accept as its own.
      const open = () =>
        new Promise<{ ws: WebSocket; c: ReturnType<typeof collect> }>((resolve, reject) => {
          const ws = new WebSocket(`${front.replace('http', 'ws')}/ws/discuss?token=${encodeURIComponent(token)}`, {
            headers: { origin: front },
          });
          const c = collect(ws);
          ws.once('open', () => resolve({ ws, c }));
          ws.once('error', reject);
        });

      const first = await open();
      first.ws.send(JSON.stringify(config));
      await first.c.until(() => first.c.frames.filter((f) => f.type === 'text').length >= 2, 30_000);

      // Kill the process that runs it (the one nginx sent the socket to): the proxy's socket drops with it.
      const owner = (await admin.query('SELECT owner_id FROM discussions WHERE session_id = $1', [config.session_id]))
        .rows[0].owner_id;
      const running = owner === firstInstance ? 0 : 1;
      await procs[running].kill('SIGKILL');
      expect((await first.c.closedWith(10_000)).code).not.toBe(1000);
      const seen = kept(first.c.frames);
      expect(seen.some((f) => f.type === 'discussion_ended')).toBe(false);

      // The app reconnects to the same address with the same session: the proxy sends it to the survivor.
      const second = await open();
      second.ws.send(JSON.stringify({ ...config, resume_from: seen.length }));
      expect((await second.c.closedWith(60_000)).code).toBe(1000);
      const all = [...seen, ...kept(second.c.frames)];
      expect(all.at(-1)).toMatchObject({ type: 'discussion_ended', reason: 'completed' });
      const texts = all.filter((f) => f.type === 'text');
      expect(texts).toHaveLength(6);
      expect(new Set(texts.map((f) => f.id)).size).toBe(6);

      const stored = await call(front, 'GET', `/discussion/${config.session_id}`, token);
      expect(stored.body.status).toBe('ended');
      expect(stored.body.frames).toHaveLength(all.length);
      // Finished by the survivor.
      const after = (await admin.query('SELECT owner_id FROM discussions WHERE session_id = $1', [config.session_id]))
        .rows[0].owner_id;
      expect(after).not.toBe(owner);

      // A socket opened the app's way, with a single-use ticket.
      const { ticket } = (await call(front, 'POST', '/auth/socket-ticket', token)).body as { ticket: string };
      const live = new WebSocket(`${front.replace('http', 'ws')}/ws/updates?ticket=${ticket}`, {
        headers: { origin: front },
      });
      const liveFrames = collect(live);
      await liveFrames.next('connected');
      live.close();
      await liveFrames.closedWith();
      // The recipe's access log has every request, the sockets' too, and neither credential.
      const log = path.join(dir, 'nginx', 'access.log');
      await expect.poll(() => readFile(log, 'utf8'), { timeout: 10_000 }).toContain('GET /ws/updates HTTP/1.1');
      const written = await readFile(log, 'utf8');
      expect(written).toContain('GET /ws/discuss HTTP/1.1');
      expect(written).toContain('POST /auth/login HTTP/1.1');
      expect(written).not.toContain(token);
      expect(written).not.toContain(ticket);
      expect(written).not.toMatch(/[?&](token|ticket)=/);
    }, 150_000);
  },
);
