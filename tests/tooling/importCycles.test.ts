// No import circles, type-only imports included, in the server and in the SPA: each part can be read and tested
// from its own imports down. The SPA's typed actor registry (src/machines/kit/systemRegistry.ts) imports no chart:
// each chart adds its own entry by module augmentation.
import { mkdtempSync, mkdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { importCycles } from '../../scripts/lib/importCycles';

const ROOT = path.resolve(import.meta.dirname, '..', '..');

describe('import circles', () => {
  it('server/ has none, type-only imports included', () => {
    expect(importCycles(path.join(ROOT, 'server'), ROOT)).toEqual([]);
  });

  it('src/ has none, type-only imports included', () => {
    expect(importCycles(path.join(ROOT, 'src'), ROOT)).toEqual([]);
  });

  it('finds a circle made of type-only and multi-line imports, and names its files', () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'cycles-'));
    mkdirSync(path.join(dir, 'engine'));
    writeFileSync(
      path.join(dir, 'context.ts'),
      "import type { Session } from './engine/session';\nexport interface Ctx { s: Session }\n",
    );
    writeFileSync(
      path.join(dir, 'engine', 'session.ts'),
      "import {\n  helper,\n} from './hooks';\nexport class Session { h = helper }\n",
    );
    writeFileSync(path.join(dir, 'engine', 'hooks.ts'), "export const helper = (c: import('../context').Ctx) => c;\n");
    writeFileSync(path.join(dir, 'leaf.ts'), "import type { Ctx } from './context';\nexport type L = Ctx;\n");
    expect(importCycles(dir, dir)).toEqual([['context.ts', 'engine/hooks.ts', 'engine/session.ts']]);
    // Without type imports the circle is gone: only session → hooks loads code.
    expect(importCycles(dir, dir, false)).toEqual([]);
    writeFileSync(
      path.join(dir, 'engine', 'hooks.ts'),
      "import { Session } from './session';\nexport const helper = () => new Session();\n",
    );
    expect(importCycles(dir, dir, false)).toEqual([['engine/hooks.ts', 'engine/session.ts']]);
  });
});
