// Every transcript in this folder replays through the production parse path into the real machines; the named
// ones also have their end state checked, including what the UI would show (selectors).
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { selectIsLiveReady, selectLiveStatus } from '../../src/machines/liveUpdates.selectors';
import { selectActiveSpeaker, selectAgentCount, selectConnectionCount } from '../../src/machines/workspace.selectors';
import { readTranscript, replayLiveUpdates } from './replay';

const here = __dirname;
const file = (name: string) => path.join(here, name);
const LIVE_ENDPOINTS = new Set(['/ws/updates', '/ws/system']);

describe('transcript replay', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  for (const name of readdirSync(here).filter((f) => f.endsWith('.jsonl'))) {
    it(`${name} is well-formed and replays without surprises`, async () => {
      const transcript = readTranscript(file(name));
      if (!LIVE_ENDPOINTS.has(transcript.endpoint)) return; // other endpoints get their replayer with their panels
      const run = await replayLiveUpdates(transcript);
      expect(run.unexpectedClientFrames).toEqual([]);
      run.stop();
    });
  }

  it('updates-basic: agents, connections, statuses and the active speaker end as the server said', async () => {
    const run = await replayLiveUpdates(readTranscript(file('updates-basic.jsonl')));
    const ws = run.workspace.getSnapshot();
    expect(ws.context.agents.map((a) => [a.id, a.name])).toEqual([
      ['a1', 'Ada Lovelace'],
      ['a2', 'Bo'],
    ]);
    expect(ws.context.edges).toEqual([{ id: 'c1', source: 'a1', target: 'a2' }]);
    expect(ws.context.statuses).toEqual({ a1: 'thinking', a2: 'speaking' });
    // What the top bar and canvas would show.
    expect(selectAgentCount(ws)).toBe(2);
    expect(selectConnectionCount(ws)).toBe(1);
    expect(selectActiveSpeaker(ws)?.name).toBe('Bo');
    expect(selectIsLiveReady(run.live.getSnapshot())).toBe(true);
    expect(run.sockets).toHaveLength(1);
    expect(run.live.getSnapshot().context.errors).toEqual([]);
    run.stop();
  });

  it('updates-drop-resume: reconnects once after 1006 and resumes; the malformed frame is reported, the unknown one ignored', async () => {
    const run = await replayLiveUpdates(readTranscript(file('updates-drop-resume.jsonl')));
    const ws = run.workspace.getSnapshot();
    expect(run.sockets).toHaveLength(2);
    expect(run.sockets[1].query.token).toBe('replay-token');
    expect(ws.context.agents.map((a) => a.id)).toEqual(['a2', 'a3']);
    expect(ws.context.edges).toEqual([]);
    expect(ws.context.statuses).toEqual({ a3: 'responding' });
    expect(selectActiveSpeaker(ws)?.name).toBe('Cy');
    const live = run.live.getSnapshot();
    expect(selectLiveStatus(live)).toBe('connected');
    expect(live.context.errors.map((e) => e.message)).toEqual([
      'Closed with code 1006 (Abnormal closure (connection dropped without a close frame))',
      'The server sent a malformed "agent_deleted" message; it was ignored.',
    ]);
    expect(run.toasts.getSnapshot().context.errorCount).toBe(0);
    run.stop();
  });

  it('refuses a transcript whose lines are not in the format', () => {
    expect(() => readTranscript(file('replay.test.ts'))).toThrow(/not JSON/);
  });
});
