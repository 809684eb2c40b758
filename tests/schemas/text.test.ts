// What counts as client text at the edge: no NUL, no half of a surrogate pair (neither can be stored), and every
// real character, emoji included.
import { describe, expect, it } from 'vitest';
import { NUL_DETAIL, UNPAIRED_SURROGATE_DETAIL, text } from '../../src/schemas/common';
import { standardHybridConfig } from '../../src/schemas/standardSocket';

describe('client text', () => {
  it('refuses NUL and unpaired surrogates with their own messages, and keeps real text', () => {
    expect(text().safeParse('a\u0000b').error?.issues[0]?.message).toBe(NUL_DETAIL);
    for (const bad of ['\ud800', 'x\udc00', '\ud83d end'])
      expect(text().safeParse(bad).error?.issues[0]?.message).toBe(UNPAIRED_SURROGATE_DETAIL);
    for (const good of ['Анна', 'Ça coûte 5 €', 'drip 💧 irrigation', ''])
      expect(text().safeParse(good).success).toBe(true);
  });

  it('a socket configuration with a lone surrogate in its session_id is refused by its schema', () => {
    const config = { agent_ids: ['a1', 'a2'], session_id: '\ud800', topic: 'Drip?' };
    expect(standardHybridConfig.safeParse(config).success).toBe(false);
    expect(standardHybridConfig.safeParse({ ...config, session_id: 'session_1' }).success).toBe(true);
  });
});
