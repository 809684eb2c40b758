// The run actions both panels share (src/machines/kit/runActions.ts): each panel names its own event types, the
// actions behave the same for both, and both panel charts take them from the one module.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { createActor, fromCallback, setup, type EventObject } from 'xstate';
import { runActions, type RunContext } from '../../src/machines/kit/runActions';
import { emptyFeed } from '../../src/model/feed';
import { selectMessages } from '../../src/model/feedSelectors';

type Ev =
  | { type: 'x.human'; text: string }
  | { type: 'x.format'; frame: { type: 'give_floor'; agent_id: string } }
  | { type: 'x.stop' }
  | { type: 'x.close' }
  | { type: 'x.dismiss' }
  | { type: 'x.tool'; id: string; approve: boolean };

function harness() {
  const heard: EventObject[] = [];
  const machine = setup({
    types: { context: {} as RunContext, events: {} as Ev },
    actors: { recorder: fromCallback<EventObject>(({ receive }) => receive((e) => heard.push(e))) },
  })
    .extend({
      actions: runActions<RunContext, Ev>({
        machine: 'x',
        humanSend: 'x.human',
        formatSend: 'x.format',
        toolAnswer: 'x.tool',
      }),
    })
    .createMachine({
      context: {
        feed: emptyFeed,
        error: 'old banner',
        token: 'tok',
        clockNow: 1_700_000_000_000,
        startQuestion: null,
        room: null,
      },
      invoke: { src: 'recorder', id: 'socket' },
      on: {
        'x.human': { actions: 'sendHumanMessage' },
        'x.format': { actions: 'sendFormatRequest' },
        'x.stop': { actions: 'sendStop' },
        'x.close': { actions: 'closeSocket' },
        'x.dismiss': { actions: 'dismissError' },
        'x.tool': { actions: 'sendToolApproval' },
      },
    });
  const actor = createActor(machine).start();
  return { actor, heard };
}

describe('shared run actions', () => {
  it("send the person's message under the panel's own event type, and show the card at once", () => {
    const { actor, heard } = harness();
    actor.send({ type: 'x.human', text: '  Buses should be free  ' });
    expect(heard).toHaveLength(1);
    expect(heard[0]).toMatchObject({
      type: 'socketSession.send',
      frame: { type: 'human_message', text: 'Buses should be free' },
    });
    expect(selectMessages(actor.getSnapshot().context.feed).map((m) => m.content)).toEqual(['Buses should be free']);
  });

  it("send the format's request, stop and close to the socket child; dismiss clears the banner", () => {
    const { actor, heard } = harness();
    actor.send({ type: 'x.format', frame: { type: 'give_floor', agent_id: 'a' } });
    actor.send({ type: 'x.stop' });
    actor.send({ type: 'x.close' });
    actor.send({ type: 'x.dismiss' });
    expect(heard.map((e) => e.type)).toEqual(['socketSession.send', 'socketSession.send', 'socketSession.close']);
    expect(heard[0]).toMatchObject({ frame: { type: 'give_floor', agent_id: 'a' } });
    expect(heard[1]).toMatchObject({ frame: { type: 'stop' } });
    expect(actor.getSnapshot().context.error).toBeNull();
  });

  it("answer a tool call under the panel's own event type: tool_approval goes out and the row says it", () => {
    const { actor, heard } = harness();
    actor.send({ type: 'x.tool', id: 'c1', approve: false });
    expect(heard).toEqual([{ type: 'socketSession.send', frame: { type: 'tool_approval', id: 'c1', approve: false } }]);
  });

  it('the one panel chart takes every shared action from the kit (none is written again in it)', () => {
    const names = Object.keys(runActions({ machine: 'x', humanSend: 'x', formatSend: 'x', toolAnswer: 'x' }));
    expect(names.length).toBeGreaterThan(8);
    for (const file of ['discussionPanel.machine.ts']) {
      const source = readFileSync(new URL(`../../src/machines/${file}`, import.meta.url), 'utf8');
      expect(source).toContain('runActions<');
      for (const name of names) expect(source, `${file} defines ${name}`).not.toMatch(new RegExp(`^\\s+${name}:`, 'm'));
    }
  });
});
