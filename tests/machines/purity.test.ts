// Machines are pure (ARCHITECTURE.md): no React, nothing from src/ui or src/services, and no browser or timer
// globals. I/O arrives as provided actors and actions; time as `after` delays or events that carry it.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const dir = path.resolve(__dirname, '../../src/machines');
const files = readdirSync(dir).filter((f) => /\.(ts|tsx)$/.test(f));

const FORBIDDEN_IMPORTS = [/^react(-dom)?(\/|$)/, /^@xstate\/react/, /(^|\/)ui(\/|$)/, /(^|\/)services(\/|$)/];
const FORBIDDEN_GLOBALS = [
  'window', 'document', 'navigator', 'localStorage', 'sessionStorage', 'fetch', 'WebSocket', 'Audio', 'MediaRecorder',
  'setTimeout', 'setInterval', 'requestAnimationFrame', 'XMLHttpRequest',
];

/** Code without comments and string contents, so words in prose do not count. */
function codeOnly(source: string) {
  return source
    .replace(/\/\*[\s\S]*?\*\//g, ' ')
    .replace(/(^|[^:\\])\/\/.*$/gm, '$1')
    .replace(/'(?:[^'\\\n]|\\.)*'|"(?:[^"\\\n]|\\.)*"|`(?:[^`\\]|\\.)*`/g, "''");
}

export function violations(source: string): string[] {
  const found: string[] = [];
  for (const m of source.matchAll(/(?:import|export)\s[^;]*?from\s+['"]([^'"]+)['"]|import\s*\(\s*['"]([^'"]+)['"]\s*\)|^\s*import\s+['"]([^'"]+)['"]/gm)) {
    const spec = m[1] ?? m[2] ?? m[3];
    if (FORBIDDEN_IMPORTS.some((re) => re.test(spec))) found.push(`imports ${spec}`);
  }
  const code = codeOnly(source);
  for (const name of FORBIDDEN_GLOBALS) {
    // A bare use: not a property access (x.fetch), not an object key or a member name (fetch: …, fetch(): …).
    const re = new RegExp(`(?<![.\\w$])${name}\\b(?!\\??\\s*:)`, 'g');
    if (re.test(code)) found.push(`uses ${name}`);
  }
  return found;
}

describe('machines are pure', () => {
  it('finds the machine files', () => {
    expect(files.some((f) => f.endsWith('.machine.ts'))).toBe(true);
  });

  for (const file of files) {
    it(`${file} imports no React/ui/services and touches no browser or timer globals`, () => {
      expect(violations(readFileSync(path.join(dir, file), 'utf8'))).toEqual([]);
    });
  }

  it('the check itself catches what it should and ignores prose', () => {
    expect(violations(`import { useState } from 'react';`)).toEqual(['imports react']);
    expect(violations(`import { createHttp } from '../services/http';`)).toEqual(['imports ../services/http']);
    expect(violations(`import { Badge } from '../ui/common/Badge';`)).toEqual(['imports ../ui/common/Badge']);
    expect(violations(`const id = setTimeout(() => {}, 10);`)).toEqual(['uses setTimeout']);
    expect(violations(`const w = window.innerWidth; fetch('/x');`)).toEqual(['uses window', 'uses fetch']);
    expect(violations(`new WebSocket(url)`)).toEqual(['uses WebSocket']);
    expect(violations(`// this comment mentions fetch and window\nconst s = 'setTimeout in a string';`)).toEqual([]);
    expect(violations(`const o = { fetch: 1 }; o.fetch; type T = { window?: number };`)).toEqual([]);
  });
});

// src/model is pure logic too (ARCHITECTURE.md 'Layout'): the same boundary.
const modelDir = path.resolve(__dirname, '../../src/model');
describe('the model is pure', () => {
  const modelFiles = readdirSync(modelDir).filter((f) => /\.(ts|tsx)$/.test(f));
  it('finds the model files', () => {
    expect(modelFiles).toContain('feed.ts');
  });
  for (const file of modelFiles) {
    it(`${file} imports no React/ui/services and touches no browser or timer globals`, () => {
      expect(violations(readFileSync(path.join(modelDir, file), 'utf8'))).toEqual([]);
    });
  }
});
