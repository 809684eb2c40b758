// Comments link to the repository's own docs: none cites the product specification ('part N §M') or
// ARCHITECTURE.md, documents a contributor who clones the repository does not have. `npx tsx
// scripts/rewriteCitations.ts` turns such a citation into a link to docs/product.md, docs/architecture.md or
// docs/protocol.md.
import { describe, expect, it } from 'vitest';
import { outsideCitations, rewrite } from '../../scripts/lib/citations';

describe('citations', () => {
  it('no source file cites a document outside the repo', () => {
    expect(outsideCitations()).toEqual([]);
  });

  it('the rewrite links each section to its page and anchor, keeps a rule line its width, and is idempotent', () => {
    const before = [
      "// The audio queue (part 2 §4 'Audio queue', §8, §9): one queue for both panels.",
      '// ── Session (part 1 §4, §9) ──────────────',
      "// The root actor (ARCHITECTURE.md 'The actor system').",
      'const x = 1; // unrelated',
    ].join('\n');
    const after = rewrite(before);
    expect(after.split('\n')).toEqual([
      "// The audio queue (docs/product.md#discussions-states 'Audio queue', #discussions-errors, #discussions-limits): one",
      '// queue for both panels.',
      '// ── Session (docs/product.md#workspace-states, #workspace-limits) ───',
      '// The root actor (docs/architecture.md#the-actor-tree).',
      'const x = 1; // unrelated',
    ]);
    expect(rewrite(after)).toBe(after);
  });
});
