import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createActor, fromPromise } from 'xstate';
import { createSocketFactory } from '../../src/services/socket';
import { createStandardDiscussionLogic } from '../../src/services/standardDiscussionActors';
import { selectMessageIds } from '../../src/model/feedSelectors';
import type { StandardDiscussionEvent } from '../../src/machines/discussionPanel.machine';
import { fakeSockets } from '../support/fakeWebSocket';

// discussion.resume: the standard panel re-attaches to a running discussion with the same session id.

function panel() {
  const sockets = fakeSockets();
  const fromSocket = createSocketFactory({
    wsBase: 'ws://test',
    getToken: () => 'tok',
    WebSocket: sockets.Ctor,
    debug: () => {},
  });
  const logic = createStandardDiscussionLogic({
    fromSocket,
    probeEndpoint: fromPromise(async () => true),
    getAgent: async (id) => ({ id, name: `Agent ${id}` }),
    settings: { load: () => null, save: () => {} },
    saveFile: () => {},
    log: () => {},
  });
  const actor = createActor(logic, { input: { token: 'tok' } }).start();
  return { actor, sockets };
}

const resume: Extract<StandardDiscussionEvent, { type: 'panel.resume' }> = {
  type: 'panel.resume',
  sessionId: 'session_42',
  endpoint: 'enhanced',
  agentIds: ['a1', 'a2'],
  context: 'Cover crops?',
};
const message = (id: string, content: string) => ({
  type: 'agent_message',
  id,
  agent_id: 'a1',
  agent_name: 'Ada',
  content,
  timestamp: '2026-01-01T00:00:00Z',
});

beforeEach(() => vi.useFakeTimers());
afterEach(() => vi.useRealTimers());

describe('standardDiscussion discussion.resume', () => {
  it('opens the endpoint socket with the same session id and resume_from 0, and shows the replay once', async () => {
    const { actor, sockets } = panel();
    actor.send(resume);
    await vi.advanceTimersByTimeAsync(0);
    const ws = sockets.last('/ws/enhanced');
    expect(ws).toBeDefined();
    ws.serverOpen();
    expect(ws.sent[0]).toMatchObject({
      session_id: 'session_42',
      agent_ids: ['a1', 'a2'],
      context: 'Cover crops?',
      resume_from: 0,
      token: 'tok',
    });
    expect(actor.getSnapshot().hasTag('live')).toBe(true);
    expect(actor.getSnapshot().context.topic).toBe('Cover crops?');

    ws.serverSend(message('m1', 'First'));
    ws.serverSend(message('m2', 'Second'));
    ws.serverSend(message('m1', 'First')); // a replayed frame
    expect(selectMessageIds(actor.getSnapshot().context.feed)).toEqual(['m1', 'm2']);

    // A drop reconnects with the same configuration (same session id).
    ws.serverClose(1006);
    await vi.advanceTimersByTimeAsync(2_000);
    const again = sockets.last('/ws/enhanced');
    expect(again).not.toBe(ws);
    again.serverOpen();
    expect(again.sent[0]).toMatchObject({ session_id: 'session_42', resume_from: 0 });
    actor.stop();
  });

  it('is refused without a session id or two agents, and a normal start sends no resume_from', async () => {
    const { actor, sockets } = panel();
    actor.send({ ...resume, sessionId: '' });
    actor.send({ ...resume, agentIds: ['a1', 'a1'] });
    expect(actor.getSnapshot().matches({ run: 'idle' })).toBe(true);

    actor.send({ type: 'panel.topic.change', text: 'Fresh topic' });
    actor.send({ type: 'panel.start', agentIds: ['a1', 'a2'], connections: [] });
    await vi.advanceTimersByTimeAsync(0);
    const ws = sockets.instances.at(-1)!;
    ws.serverOpen();
    expect(ws.sent[0]).not.toHaveProperty('resume_from');
    actor.stop();
  });
});
