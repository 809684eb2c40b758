// Records /ws/updates of the real server (in-memory PGlite, the offline model) into tests/transcripts:
//   updates-basic.jsonl        one user creates three agents, renames one, connects them, runs a short
//                              discussion (the agents' statuses arrive live) and deletes one agent.
//   updates-drop-resume.jsonl  the same recording, edited into a fault case (the note says how).
// Format: docs/architecture.md#recorded-socket-transcripts (a header line, then {"t","dir","data"} and
// {"t","event":"close","code"} lines).
//
//   npm run transcripts:record   (records these after the discussion transcripts)

import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import WebSocket from 'ws';
import { buildServer } from '../server/app';
import { createLlmRegistry, createOfflineProvider } from '../server/providers';
import { createNoSpeech } from '../server/providers/speech/none';
import { createNoTranscription } from '../server/providers/transcription/none';
import { LIVE_RECONNECT_BASE_DELAY_MS } from '../src/schemas/constants';

type Line = { t: number; dir: 'server'; data: Record<string, unknown> } | { t: number; event: 'close'; code: number };

const OUT = path.resolve('tests/transcripts');

async function record(): Promise<Line[]> {
  const dir = await mkdtemp(path.join(tmpdir(), 'agora-record-'));
  const server = await buildServer(
    {
      port: 0,
      host: '127.0.0.1',
      databaseUrl: 'memory://',
      dataDir: dir,
      mediaDir: path.join(dir, 'media'),
      jwtSecret: 'recorder',
      logLevel: 'silent',
      staticDir: undefined,
    },
    {
      providers: {
        llm: createLlmRegistry([createOfflineProvider()]),
        speech: createNoSpeech(),
        transcription: createNoTranscription(),
      },
    },
  );
  const base = (await server.listen()).replace('0.0.0.0', '127.0.0.1');
  const call = async (method: string, p: string, token?: string, body?: unknown) => {
    const res = await fetch(base + p, {
      method,
      headers: {
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        ...(token ? { authorization: `Bearer ${token}` } : {}),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    if (!res.ok) throw new Error(`${method} ${p}: ${res.status} ${await res.text()}`);
    return res.json();
  };

  try {
    const { access_token: token } = await call('POST', '/auth/register', undefined, {
      email: 'recorder@example.com',
      password: 'recorder-pass',
    });
    const lines: Line[] = [];
    const ws = new WebSocket(`${base.replace(/^http/, 'ws')}/ws/updates?token=${token}`);
    let opened = 0;
    ws.on('message', (d) => lines.push({ t: Date.now() - opened, dir: 'server', data: JSON.parse(String(d)) }));
    await new Promise((resolve, reject) => {
      ws.once('open', () => resolve((opened = Date.now())));
      ws.once('error', reject);
    });
    const settle = () => new Promise((r) => setTimeout(r, 60));
    await settle();

    const create = (name: string, role: string, prompt: string, x: number, y: number) =>
      call('POST', '/agents/', token, { name, role, prompt, model: 'offline' }).then(async (a) => {
        await call('PUT', `/agents/${a.id}/position`, token, { x, y });
        return a.id as string;
      });
    const ada = await create('Ada', 'Analyst', 'Weigh the evidence before you answer.', 120, 200);
    const bo = await create('Bo', 'Skeptic', 'Question every claim.', 360, 200);
    const cy = await create('Cy', 'Moderator', 'Keep the discussion moving.', 240, 420);
    await settle();
    await call('PATCH', `/agents/${ada}`, token, { name: 'Ada Lovelace', personality: 'analytical' });
    await call('POST', '/connections/', token, { from_agent_id: ada, to_agent_id: bo });
    await call('POST', '/connections/', token, { from_agent_id: bo, to_agent_id: cy });
    await settle();

    // A short discussion: its agents' statuses reach /ws/updates while it runs.
    const discussion = new WebSocket(`${base.replace(/^http/, 'ws')}/ws/discuss?token=${token}`);
    await new Promise((r) => discussion.once('open', r));
    discussion.send(
      JSON.stringify({
        agent_ids: [ada, bo],
        session_id: `session_${Date.now()}`,
        context: 'Should the vineyard switch to drip irrigation?',
        turns: 2,
      }),
    );
    await new Promise((r) => discussion.once('close', r));
    await settle();

    await call('DELETE', `/agents/${cy}`, token);
    await settle();
    ws.close(1000);
    await new Promise((r) => ws.once('close', r));
    return lines;
  } finally {
    await server.close();
    await rm(dir, { recursive: true, force: true });
  }
}

const jsonl = (header: object, lines: Line[]) => [header, ...lines].map((l) => JSON.stringify(l)).join('\n') + '\n';

/** The fault case: the socket drops (1006) after the first connection is made; the client reconnects after its
 * first back-off and the rest arrives on the new socket, with one malformed and one unknown frame added. */
function dropAndResume(lines: Line[]): Line[] {
  const cut = lines.findIndex((l) => 'data' in l && l.data.type === 'connection_created') + 1;
  const before = lines.slice(0, cut);
  const dropAt = before[before.length - 1].t + 50;
  const resumeAt = dropAt + LIVE_RECONNECT_BASE_DELAY_MS + 50;
  const shift = resumeAt + 20 - lines[cut].t;
  const after = lines.slice(cut).map((l) => ({ ...l, t: l.t + shift }));
  const lastT = after[after.length - 1].t;
  return [
    ...before,
    { t: dropAt, event: 'close', code: 1006 },
    { t: resumeAt, dir: 'server', data: { type: 'connected', channel: 'updates' } },
    ...after,
    { t: lastT + 50, dir: 'server', data: { type: 'agent_deleted' } },
    { t: lastT + 100, dir: 'server', data: { type: 'shiny_new_feature', payload: { x: 1 } } },
  ];
}

const only = process.argv[2];
if (only && !'updates-basic updates-drop-resume'.includes(only)) process.exit(0);
const lines = await record();
await writeFile(
  path.join(OUT, 'updates-basic.jsonl'),
  jsonl(
    {
      endpoint: '/ws/updates',
      note: 'Recorded from the real server: one user creates Ada, Bo and Cy, renames Ada to Ada Lovelace, connects Ada→Bo and Bo→Cy, runs a two-turn discussion between Ada and Bo (their statuses arrive live), then deletes Cy.',
    },
    lines,
  ),
);
await writeFile(
  path.join(OUT, 'updates-drop-resume.jsonl'),
  jsonl(
    {
      endpoint: '/ws/updates',
      note: 'Edited from updates-basic: the socket drops without a close frame (1006) after the first connection; the client reconnects after 3000 ms and the rest arrives on the new socket. Added at the end: one malformed agent_deleted (no agent_id) and one frame of an unknown type.',
    },
    dropAndResume(lines),
  ),
);
console.log(`recorded ${lines.length} /ws/updates frames into updates-basic.jsonl and updates-drop-resume.jsonl`);
