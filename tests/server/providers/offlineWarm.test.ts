import { expect, it } from 'vitest';
import { createOfflineProvider } from '../../../server/providers/llm/offline';
import { termsOf } from '../../../server/providers/llm/offlineModel/tagging';

// The engine warms a discussion's providers when it starts (engine/discussions.ts): the offline model loads its
// tagger then, not at the first turn, when the load would hold up every socket of a watched room (bench rooms).
it('warm() loads the tagger that the first answer needs', async () => {
  const provider = createOfflineProvider();
  expect(() => termsOf('Drip lines save water.')).toThrow(/not loaded/);
  await provider.warm?.();
  expect(termsOf('Drip lines save water.').map((t) => t.normal)).toContain('water');
});
