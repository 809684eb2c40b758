import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { buildServer } from '../../server/app';
import { tuneEngine } from '../../server/engine/hooks';
import type { Env } from './configs';
import { providers } from './providers';

/** A fresh server (in-memory PGlite) with one registered user and three agents. */
export async function startServer() {
  const dir = await mkdtemp(path.join(tmpdir(), 'agora-transcripts-'));
  const server = await buildServer(
    {
      port: 0,
      host: '127.0.0.1',
      databaseUrl: 'memory://',
      dataDir: dir,
      mediaDir: path.join(dir, 'media'),
      jwtSecret: 'transcripts-secret-0123456789',
      logLevel: 'silent',
      staticDir: undefined,
      ollamaHost: undefined,
      openaiBaseUrl: undefined,
      ttsBaseUrl: undefined,
      offlineTokensPerSecond: 0,
    },
    { providers },
  );
  tuneEngine(server.ctx, { ackTimeoutMs: 3_000 });
  const close = async () => {
    await server.close();
    await rm(dir, { recursive: true, force: true });
  };
  try {
    const url = (await server.listen()).replace('0.0.0.0', '127.0.0.1').replace('localhost', '127.0.0.1');
    const api = async (method: string, p: string, body?: unknown, token?: string) => {
      const res = await fetch(url + p, {
        method,
        headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
        body: JSON.stringify(body),
      });
      if (!res.ok) throw new Error(`${method} ${p}: ${res.status} ${await res.text()}`);
      return res.json() as Promise<Record<string, any>>;
    };
    const { access_token: token } = await api('POST', '/auth/register', {
      email: 'recorder@example.com',
      password: 'recorder-pass',
    });
    const agents: string[] = [];
    for (const a of [
      {
        name: 'Ada',
        role: 'Agronomist',
        prompt: 'You study soil health and water use in vineyards. You want field evidence.',
        model: 'offline',
        personality: 'analytical',
      },
      {
        name: 'Bo',
        role: 'Economist',
        prompt: 'You weigh costs, prices and risk for small wine estates.',
        model: 'offline',
        personality: 'assertive',
      },
      {
        name: 'Cy',
        role: 'Grower',
        prompt: 'You run a family vineyard and care about practical, affordable steps.',
        model: 'offline',
        personality: 'patient',
      },
    ])
      agents.push(String((await api('POST', '/agents/', a, token)).id));
    const env: Env = { base: url.replace(/^http/, 'ws'), token, agents };
    return { env, close };
  } catch (err) {
    await close();
    throw err;
  }
}
