import { readdirSync } from 'node:fs';
import path from 'node:path';

/** The files under `dir` whose names match `pattern`, skipping installed packages and build output. */
export function sourceFiles(dir: string, pattern: RegExp): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) return e.name === 'node_modules' || e.name === 'dist' ? [] : sourceFiles(p, pattern);
    return pattern.test(e.name) ? [p] : [];
  });
}
