// No import circles in the server or the SPA, type-only imports included: each part can be read and tested
// from its own imports down.
import { mkdtempSync, mkdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { importCycles } from '../../scripts/lib/importCycles';

const ROOT = path.resolve(import.meta.dirname, '..', '..');

describe('import circles', () => {
  it.each(['server', 'src'])('%s/ has none', (dir) => {
    expect(importCycles(path.join(ROOT, dir), ROOT)).toEqual([]);
  });

  it('finds a circle made of type-only and multi-line imports, and names its files', () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'cycles-'));
    mkdirSync(path.join(dir, 'engine'));
    writeFileSync(path.join(dir, 'context.ts'), "import type { Session } from './engine/session';\nexport interface Ctx { s: Session }\n");
    writeFileSync(path.join(dir, 'engine', 'session.ts'), "import {\n  helper,\n} from './hooks';\nexport class Session { h = helper }\n");
    writeFileSync(path.join(dir, 'engine', 'hooks.ts'), "export const helper = (c: import('../context').Ctx) => c;\n");
    writeFileSync(path.join(dir, 'leaf.ts'), "import type { Ctx } from './context';\nexport type L = Ctx;\n");
    expect(importCycles(dir, dir)).toEqual([['context.ts', 'engine/hooks.ts', 'engine/session.ts']]);
  });
});
