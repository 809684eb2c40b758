// Which frames a panel relays to the canvas and the audio queue (the charts' isRelayedFrame guard).
import { describe, expect, it } from 'vitest';
import { mayRelay } from '../../src/machines/kit/discussionRelay';

const heard = (frame: { type: string } & Record<string, unknown>) => ({ type: 'socketSession.frame', frame });

describe('mayRelay', () => {
  it('relays statuses and the start of a streamed turn, with speech on or off', () => {
    for (const speechOn of [false, true]) {
      expect(mayRelay(heard({ type: 'agent_status', agent_id: 'a', status: 'thinking' }), speechOn)).toBe(true);
      expect(mayRelay(heard({ type: 'agent_message_start', id: 'm', agent_id: 'a' }), speechOn)).toBe(true);
    }
  });

  it('leaves other frames alone while speech is off, and lets speech see every frame while it is on', () => {
    for (const type of ['agent_message_delta', 'agent_message', 'audio', 'performance_metric', 'acl_message']) {
      expect(mayRelay(heard({ type }), false)).toBe(false);
      expect(mayRelay(heard({ type }), true)).toBe(true);
    }
  });

  it('relays a turn that names an option, and the start of a discussion, whatever the speech', () => {
    expect(mayRelay(heard({ type: 'agent_message', option_id: 'o1', position: 'Cheaper passes first' }), false)).toBe(
      true,
    );
    expect(mayRelay(heard({ type: 'discussion_initialized' }), false)).toBe(true);
  });

  it('relays nothing for events that are not frames', () => {
    expect(mayRelay({ type: 'audio.started' }, true)).toBe(false);
  });
});
