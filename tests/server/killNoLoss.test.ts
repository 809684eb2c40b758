import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { call, openSocket, startServerProcess, type ServerProcess } from './serverProcess';

// In the default mode (no DISCUSSIONS_SURVIVE_RESTART) a SIGKILL loses no frame the client
// was sent. The kill is sent the moment a message frame arrives, before the server's background batch can have
// written it; after the restart every frame the client saw is stored, and the discussion is marked abandoned.
let dir = '';
let server: ServerProcess | null = null;
afterAll(async () => {
  await server?.kill();
  if (dir) await rm(dir, { recursive: true, force: true });
});

it('a frame the client saw is stored after a SIGKILL and a restart', async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'agora-kill-'));
  const env = { DATA_DIR: path.join(dir, 'data'), OFFLINE_MODEL_TOKENS_PER_SECOND: '0' };
  server = await startServerProcess(env);
  const token = (
    await call(server.url, 'POST', '/auth/register', undefined, { email: 'kill@example.com', password: 'secret-pass' })
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
    session_id: `session_${Date.now()}_kill`,
    context: 'Kill me mid-sentence',
    turns: 40,
  };
  const kept = (frames: any[]) =>
    frames.filter((f) => f.type !== 'agent_message_start' && f.type !== 'agent_message_delta');

  const first = await openSocket(server.wsUrl, '/ws/discuss', token);
  const pid = server.proc.pid!;
  let texts = 0;
  // Killed synchronously on the third message's arrival: no later event of this process runs first.
  first.ws.on('message', (d) => {
    if (JSON.parse(String(d)).type === 'text' && ++texts === 3) process.kill(pid, 'SIGKILL');
  });
  first.ws.send(JSON.stringify(config));
  await first.c.closedWith(30_000);
  await server.kill('SIGKILL');
  const seen = kept(first.c.frames);
  expect(seen.filter((f) => f.type === 'text').length).toBeGreaterThanOrEqual(3);

  server = await startServerProcess(env);
  const stored = (await call(server.url, 'GET', `/discussion/${config.session_id}`, token)).body;
  expect(stored.status).toBe('abandoned');
  const storedFrames = stored.frames.map((f: { data: unknown }) => f.data);
  expect(storedFrames.slice(0, seen.length)).toEqual(seen);
}, 120_000);
