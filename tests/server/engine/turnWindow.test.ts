import { describe, expect, it } from 'vitest';
import { EARLIER_LIMIT, TURN_WINDOW } from '../../../server/engine/record';
import { answer, plans, run, until } from './machineKit';

// A flood of human messages does not grow the machine's record (and with it the snapshot
// stored with every batch in durable mode) without bound: the latest turns stay whole, older ones become gists.

describe('the turn window', () => {
  it('keeps 2,000 human messages to a bounded record, and the next prompt still sees the latest words', async () => {
    let gate!: () => void;
    const first = new Promise<void>((r) => (gate = r));
    const r = run(plans.basic({ turns: 2 }), async (req) => {
      if (req.context!.turn === 1) await first;
      return answer();
    });
    await until(() => r.requests.length === 1);
    for (let i = 0; i < 2000; i++) r.actor.send({ type: 'human.message', text: `Message ${i}: ${'x'.repeat(500)}` });
    const record = r.actor.getSnapshot().context.record;
    expect(record.turns).toHaveLength(TURN_WINDOW);
    expect(record.turns.at(-1)!.content).toContain('Message 1999');
    expect(record.earlier!.length).toBe(EARLIER_LIMIT);
    expect(record.olderTurns).toBe(2000 - TURN_WINDOW);
    // The persisted snapshot stays small: well under what 2,000 messages of 500 characters would take (1 MB).
    expect(JSON.stringify(r.actor.getPersistedSnapshot()).length).toBeLessThan(100_000);
    gate();
    await r.done;
    const next = r.requests[1];
    expect(next.context!.history.some((h) => h.human && h.content.startsWith('Message 1999'))).toBe(true);
    expect(next.context!.turn).toBe(2);
  });
});
