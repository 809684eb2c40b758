// A burst of frames (services/frameBatch.ts: what arrives before the next task, as a resume's replay does) reaches
// the standard panel as one `socketSession.frames` and must leave it exactly as the same frames one by one would:
// the same feed and banner, the same statuses and positions on the canvas, the same clips queued, and a burst that
// holds discussion_ended closes the run after relaying the frames before it.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { AnyEventObject } from 'xstate';
import { ENDPOINTS } from '../../src/schemas/constants';
import { defaults } from '../../src/schemas/settings';
import { flush } from '../support/harness';
import { standardPanel } from './panelHarness';

const NOW = 1_700_000_000_000;
// Speech on, and the Basic endpoint (interrupts off), so every kind of relay is in play.
const speaking = { ...defaults.standardPanel, basic: { ...defaults.standardPanel.basic, tts: true } };
const speakingBasic = { ...speaking, communication: { ...speaking.communication, enableInterrupts: false } };

const STREAM = [
  { type: 'agent_status', agent_id: 'agent-a', status: 'thinking' },
  { type: 'agent_message_start', id: 'm1', agent_id: 'agent-a', agent_name: 'Ada', turn: 1 },
  { type: 'text', id: 'm1', from_id: 'agent-a', from: 'Ada', text: 'Drip saves water.', turn: 1 },
  { type: 'audio', agent_id: 'agent-a', audio_url: '/media/tts/a1.wav', audio_id: 'a1', message_id: 'm1', text: 'x' },
  { type: 'error', message: 'Bo could not answer: the model is not reachable' },
  { type: 'agent_status', agent_id: 'agent-b', status: 'idle' },
  { type: 'text', id: 'm2', from_id: 'agent-b', from: 'Bo', text: 'Furrows cost less.', turn: 2 },
  { type: 'discussion_ended', reason: 'completed' },
];

/** Runs the stream into a live standard panel, one frame at a time or as one burst; returns what it left. */
async function run(burst: boolean) {
  const pending: (() => void)[] = [];
  const p = standardPanel({
    saved: speakingBasic,
    now: () => NOW,
    deferFrames: burst ? (f) => (pending.push(f), () => {}) : undefined,
  });
  await flush();
  await vi.advanceTimersByTimeAsync(0);
  p.panel.send({ type: 'panel.topic.change', text: 'Drip or furrow irrigation?' });
  p.panel.send({ type: 'panel.start', agentIds: ['agent-a', 'agent-b'], connections: [] });
  await flush();
  await vi.advanceTimersByTimeAsync(0);
  const ws = p.sockets.last(ENDPOINTS.basic.path)!;
  ws.serverOpen();
  await vi.advanceTimersByTimeAsync(0);
  const events = { workspace: p.workspace.length, audio: p.audioQueue.length };
  const feedAtOpen = p.panel.getSnapshot().context.feed;
  for (const frame of STREAM) ws.serverSend(frame);
  // One deferred flush for the whole burst: nothing reached the panel before it.
  if (burst) {
    expect(pending).toHaveLength(1);
    expect(p.panel.getSnapshot().context.feed).toBe(feedAtOpen);
    pending[0]!();
  }
  await vi.advanceTimersByTimeAsync(0);
  const snapshot = p.panel.getSnapshot();
  const strip = (e: AnyEventObject) => ({ ...e, replyTo: e.replyTo ? 'panel' : undefined });
  return {
    feed: snapshot.context.feed,
    error: snapshot.context.error,
    ended: snapshot.matches({ run: 'ended' }),
    closed: ws.closedByClient,
    workspace: p.workspace.slice(events.workspace),
    audio: p.audioQueue.slice(events.audio).map(strip),
  };
}

describe('a burst of frames', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('leaves the panel as the same frames one by one do, and closes after the last', async () => {
    const one = await run(false);
    const burst = await run(true);
    expect(one.ended).toBe(true);
    expect(one.closed?.code).toBe(1000);
    expect(one.workspace).toContainEqual({ type: 'discussion.agentStatus', agentId: 'agent-a', status: 'thinking' });
    expect(one.workspace).toContainEqual({ type: 'discussion.agentStatus', agentId: 'agent-a', status: 'responding' });
    expect(one.audio.some((e) => e.type === 'audio.enqueue')).toBe(true);
    expect(one.error).toBe('Bo could not answer: the model is not reachable');
    expect(burst).toEqual(one);
  });
});
