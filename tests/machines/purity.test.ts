// Machines are pure (docs/architecture.md#rules): no React, nothing from src/ui or src/services, and no browser or
// timer globals. I/O arrives as provided actors and actions; time as `after` delays or events that carry it.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

// src/machines (with kit/, the chart code several charts share) and src/model (pure logic that is not a chart) keep
// the same rules.
const dirs = ['machines', 'machines/kit', 'model'].map((d) => path.resolve(__dirname, '../../src', d));
const files = dirs.flatMap((dir) =>
  readdirSync(dir)
    .filter((f) => /\.(ts|tsx)$/.test(f))
    .map((f) => path.join(dir, f)),
);

const FORBIDDEN_IMPORTS = [/^react(-dom)?(\/|$)/, /^@xstate\/react/, /(^|\/)ui(\/|$)/, /(^|\/)services(\/|$)/];
const FORBIDDEN_GLOBALS = [
  'window',
  'document',
  'navigator',
  'localStorage',
  'sessionStorage',
  'fetch',
  'WebSocket',
  'Audio',
  'MediaRecorder',
  'setTimeout',
  'setInterval',
  'requestAnimationFrame',
  'XMLHttpRequest',
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
  for (const m of source.matchAll(
    /(?:import|export)\s[^;]*?from\s+['"]([^'"]+)['"]|import\s*\(\s*['"]([^'"]+)['"]\s*\)|^\s*import\s+['"]([^'"]+)['"]/gm,
  )) {
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

// The server's discussion engine is a statechart too (server/engine/*.machine.ts): no I/O in it either. The model,
// speech, research, storage and sockets reach it only as provided actors (runtime.ts) and emitted frames (session.ts).
const engineDir = path.resolve(__dirname, '../../server/engine');
const engineFiles = readdirSync(engineDir).filter((f) => f.endsWith('.machine.ts'));
const ENGINE_FORBIDDEN_IMPORTS = [
  /^node:/,
  /^(fs|net|http|https|child_process|ws|fastify|pg)$/,
  /^@electric-sql\//,
  /^@fastify\//,
  /(^|\/)(providers|db|routes|realtime)(\/|$)/,
  /^\.\/(runtime|session|store|registry|hooks|thinking)$/,
];
const ENGINE_FORBIDDEN_GLOBALS = ['process', 'performance', 'setImmediate', 'require'];

export function engineViolations(source: string): string[] {
  const found = violations(source).filter((v) => !v.startsWith('imports '));
  for (const m of source.matchAll(
    /(?:import|export)\s[^;]*?from\s+['"]([^'"]+)['"]|import\s*\(\s*['"]([^'"]+)['"]\s*\)/gm,
  )) {
    const spec = m[1] ?? m[2];
    if (ENGINE_FORBIDDEN_IMPORTS.some((re) => re.test(spec))) found.push(`imports ${spec}`);
  }
  const code = codeOnly(source);
  for (const name of ENGINE_FORBIDDEN_GLOBALS)
    if (new RegExp(`(?<![.\\w$])${name}\\b(?!\\??\\s*:)`).test(code)) found.push(`uses ${name}`);
  return found;
}

describe('the engine machine is pure', () => {
  it('finds the engine machine', () => {
    expect(engineFiles).toContain('discussion.machine.ts');
  });
  for (const file of engineFiles) {
    it(`server/engine/${file} does no I/O: no node, socket, database or provider imports, no timers or clocks`, () => {
      expect(engineViolations(readFileSync(path.join(engineDir, file), 'utf8'))).toEqual([]);
    });
  }
  it('the check catches what it should', () => {
    expect(engineViolations(`import { readFile } from 'node:fs/promises';`)).toEqual(['imports node:fs/promises']);
    expect(engineViolations(`import { chat } from '../providers/llm/ollama';`)).toEqual([
      'imports ../providers/llm/ollama',
    ]);
    expect(engineViolations(`import { engineActors } from './runtime';`)).toEqual(['imports ./runtime']);
    expect(engineViolations(`const t = performance.now(); setTimeout(f, 1);`)).toEqual([
      'uses setTimeout',
      'uses performance',
    ]);
    expect(engineViolations(`import { setup } from 'xstate'; import { say } from './context';`)).toEqual([]);
  });
});

describe('machines are pure', () => {
  it('finds the machine files', () => {
    expect(files.some((f) => f.endsWith('.machine.ts'))).toBe(true);
    expect(files.some((f) => f.includes(`${path.sep}model${path.sep}`))).toBe(true);
  });

  for (const file of files) {
    it(`${path.relative(path.resolve(__dirname, '../../src'), file)} imports no React/ui/services and touches no browser or timer globals`, () => {
      expect(violations(readFileSync(file, 'utf8'))).toEqual([]);
    });
  }

  it('src/machines holds only charts, their setups, state configs several charts share, and their selectors (pure logic that is not a chart lives in src/model)', () => {
    const machineDir = path.resolve(__dirname, '../../src/machines');
    const strays = readdirSync(machineDir).filter(
      (f) => f !== 'kit' && !/\.(machine|setup|states|selectors)\.ts$/.test(f),
    );
    expect(strays).toEqual([]);
  });

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

// src/model is pure logic too: the same boundary, its subfolders (feed/) included.
const modelDir = path.resolve(__dirname, '../../src/model');
describe('the model is pure', () => {
  const modelFiles = (readdirSync(modelDir, { recursive: true }) as string[]).filter((f) => /\.(ts|tsx)$/.test(f));
  it('finds the model files', () => {
    expect(modelFiles).toContain(path.join('feed', 'apply.ts'));
    expect(modelFiles).toContain('keyedVec.ts');
  });
  for (const file of modelFiles) {
    it(`${file} imports no React/ui/services, no xstate and no chart, and touches no browser or timer globals`, () => {
      const source = readFileSync(path.join(modelDir, file), 'utf8');
      expect([...violations(source), ...layerViolations(source, /^xstate(\/|$)|(^|\/)machines(\/|$)/)]).toEqual([]);
    });
  }
});

/** Imports whose specifier matches `forbidden`. */
function layerViolations(source: string, forbidden: RegExp): string[] {
  return [...source.matchAll(/(?:import|export)\s[^;]*?from\s+['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]\s*\)/g)]
    .map((m) => m[1] ?? m[2])
    .filter((spec) => forbidden.test(spec))
    .map((spec) => `imports ${spec}`);
}

// The server shares only the schemas and src/shared with the SPA: never its model, charts, services or views.
describe('the server imports only src/schemas and src/shared', () => {
  const serverDir = path.resolve(__dirname, '../../server');
  const serverFiles = (readdirSync(serverDir, { recursive: true }) as string[]).filter((f) => /\.ts$/.test(f));
  it('finds the server files', () => expect(serverFiles.length).toBeGreaterThan(50));
  it('no server file imports another part of src/', () => {
    const found = serverFiles.flatMap((file) =>
      layerViolations(readFileSync(path.join(serverDir, file), 'utf8'), /(^|\/)src\/(?!schemas\/|shared\/)/).map(
        (v) => `${file}: ${v}`,
      ),
    );
    expect(found).toEqual([]);
  });
  it('the check catches a layer crossing', () => {
    expect(layerViolations("import { x } from '../../src/model/feed';", /(^|\/)src\/(?!schemas\/|shared\/)/)).toEqual([
      'imports ../../src/model/feed',
    ]);
    expect(layerViolations("import type { A } from 'xstate';", /^xstate(\/|$)/)).toEqual(['imports xstate']);
  });
});
