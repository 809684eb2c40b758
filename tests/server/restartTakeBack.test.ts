import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { call, openSocket, startServerProcess, type ServerProcess } from './serverProcess';

// One process on the embedded database (PGlite) with DISCUSSIONS_SURVIVE_RESTART: a discussion that was running
// when its server was killed continues once the server is started again and its client re-attaches with the same
// session_id, every frame exactly once.
let dir = '';
let server: ServerProcess | null = null;
afterAll(async () => {
  await server?.kill();
  if (dir) await rm(dir, { recursive: true, force: true });
});

it('takes its own discussion back after a SIGKILL and a restart', async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'agora-restart-'));
  const env = {
    DATA_DIR: path.join(dir, 'data'),
    DISCUSSIONS_SURVIVE_RESTART: 'true',
    OFFLINE_MODEL_TOKENS_PER_SECOND: '40',
  };
  server = await startServerProcess(env);
  const token = (
    await call(server.url, 'POST', '/auth/register', undefined, {
      email: 'restart@example.com',
      password: 'secret-pass',
    })
  ).body.access_token as string;
  const ids: string[] = [];
  for (const name of ['Ada', 'Bo'])
    ids.push(
      (
        await call(server.url, 'POST', '/agents/', token, {
          name,
          role: 'Researcher',
          prompt: 'Study it.',
          model: 'offline',
        })
      ).body.id,
    );
  const config = {
    agent_ids: ids,
    session_id: `session_${Date.now()}_restart`,
    context: 'Kill me and start me again',
    turns: 5,
  };
  const kept = (frames: any[]) =>
    frames.filter((f) => f.type !== 'agent_message_start' && f.type !== 'agent_message_delta');

  const first = await openSocket(server.wsUrl, '/ws/discuss', token);
  first.ws.send(JSON.stringify(config));
  await first.c.until(() => first.c.frames.filter((f) => f.type === 'text').length >= 2, 30_000);
  await server.kill('SIGKILL');
  await first.c.closedWith();
  const seen = kept(first.c.frames);
  expect(seen.some((f) => f.type === 'discussion_ended')).toBe(false);

  server = await startServerProcess(env);
  const second = await openSocket(server.wsUrl, '/ws/discuss', token);
  second.ws.send(JSON.stringify({ ...config, resume_from: seen.length }));
  expect((await second.c.closedWith(60_000)).code).toBe(1000);
  const all = [...seen, ...kept(second.c.frames)];
  expect(all.at(-1)).toMatchObject({ type: 'discussion_ended', reason: 'completed' });
  expect(new Set(all.filter((f) => f.type === 'text').map((f) => f.id)).size).toBe(5);
  const stored = (await call(server.url, 'GET', `/discussion/${config.session_id}`, token)).body;
  expect(stored.status).toBe('ended');
  expect(stored.frames.map((f: { data: unknown }) => f.data)).toEqual(all);
}, 120_000);
