import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { sourceFiles } from './sourceFiles';

// The import circles in a folder of TypeScript: groups of files that reach each other through their relative
// imports. Strongly connected components (Tarjan), each one circle, its files sorted. With `typeImports`, type-only
// imports count too (a circle of types still means no file of it can be read or changed on its own); without, only
// the imports that load code at run time.

const IMPORT =
  /^\s*(?:import|export)\s([^'";]*?)\sfrom\s+['"](\.{1,2}\/[^'"]+)['"]|import\(\s*['"](\.{1,2}\/[^'"]+)['"]\s*\)/gm;

/** `import type …`, `export type …`, or braces that hold only `type X` names. */
function typeOnly(clause: string): boolean {
  const c = clause.trim();
  if (/^type\s/.test(c)) return true;
  const braces = /^\{([^}]*)\}$/.exec(c);
  if (!braces) return false;
  const names = braces[1]
    .split(',')
    .map((n) => n.trim())
    .filter(Boolean);
  return names.length > 0 && names.every((n) => n.startsWith('type '));
}

function resolveImport(from: string, spec: string): string | null {
  const base = path.resolve(path.dirname(from), spec);
  for (const c of [
    base,
    `${base}.ts`,
    `${base}.tsx`,
    path.join(base, 'index.ts'),
    path.join(base, 'index.tsx'),
    base.replace(/\.js$/, '.ts'),
  ]) {
    if (/\.tsx?$/.test(c) && existsSync(c)) return c;
  }
  return null;
}

export function importGraph(dir: string, typeImports = true): Map<string, string[]> {
  const graph = new Map<string, string[]>();
  for (const file of sourceFiles(dir, /(?<!\.d)\.tsx?$/)) {
    const deps = new Set<string>();
    for (const m of readFileSync(file, 'utf8').matchAll(IMPORT)) {
      // import('…') in a type position is a type import.
      if (!typeImports && (m[3] !== undefined || typeOnly(m[1]))) continue;
      const target = resolveImport(file, m[2] ?? m[3]);
      if (target) deps.add(target);
    }
    graph.set(file, [...deps]);
  }
  return graph;
}

export function importCycles(dir: string, root = process.cwd(), typeImports = true): string[][] {
  const graph = importGraph(dir, typeImports);
  let next = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const cycles: string[][] = [];
  const visit = (v: string) => {
    index.set(v, next);
    low.set(v, next++);
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!graph.has(w)) continue;
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) !== index.get(v)) return;
    const group: string[] = [];
    let w: string;
    do {
      w = stack.pop()!;
      onStack.delete(w);
      group.push(path.relative(root, w));
    } while (w !== v);
    if (group.length > 1) cycles.push(group.sort());
  };
  for (const v of graph.keys()) if (!index.has(v)) visit(v);
  return cycles;
}
