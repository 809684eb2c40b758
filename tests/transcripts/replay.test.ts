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

  /** The recorded ids, by agent name (the first name each agent was created with). */
  const idsByName = (t: ReturnType<typeof readTranscript>) =>
    Object.fromEntries(
      t.lines.flatMap((l) => ('data' in l && (l.data as any).type === 'agent_created' ? [[(l.data as any).agent.name, (l.data as any).agent.id]] : [])),
    ) as Record<string, string>;

  it('updates-basic (recorded): agents, connections and statuses end as the server said', async () => {
    const transcript = readTranscript(file('updates-basic.jsonl'));
    const id = idsByName(transcript);
    const run = await replayLiveUpdates(transcript);
    const ws = run.workspace.getSnapshot();
    expect(ws.context.agents.map((a) => [a.id, a.name])).toEqual([
      [id.Ada, 'Ada Lovelace'],
      [id.Bo, 'Bo'],
    ]);
    // Cy's deletion took its Bo→Cy edge with it.
    expect(ws.context.edges.map((e) => [e.source, e.target])).toEqual([[id.Ada, id.Bo]]);
    // The discussion's statuses arrived live and ended idle.
    expect(ws.context.statuses).toEqual({ [id.Ada]: 'idle', [id.Bo]: 'idle' });
    // What the top bar and canvas would show.
    expect(selectAgentCount(ws)).toBe(2);
    expect(selectConnectionCount(ws)).toBe(1);
    expect(selectActiveSpeaker(ws)).toBeFalsy();
    expect(selectIsLiveReady(run.live.getSnapshot())).toBe(true);
    expect(run.sockets).toHaveLength(1);
    expect(run.live.getSnapshot().context.errors).toEqual([]);
    run.stop();
  });

  it('updates-drop-resume (edited): reconnects once after 1006 and resumes; the malformed frame is reported, the unknown one ignored', async () => {
    const transcript = readTranscript(file('updates-drop-resume.jsonl'));
    const id = idsByName(transcript);
    const run = await replayLiveUpdates(transcript);
    const ws = run.workspace.getSnapshot();
    expect(run.sockets).toHaveLength(2);
    expect(run.sockets[1].query.token).toBe('replay-token');
    expect(ws.context.agents.map((a) => a.name)).toEqual(['Ada Lovelace', 'Bo']);
    expect(ws.context.edges.map((e) => [e.source, e.target])).toEqual([[id.Ada, id.Bo]]);
    expect(ws.context.statuses).toEqual({ [id.Ada]: 'idle', [id.Bo]: 'idle' });
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
