// The server bundle `npm start` runs (scripts/lib/serverBundle.mjs): built from the sources, each file keeping its
// own import.meta.url (the migrations folder is found from it), the packages inside but those that must stay as
// installed, and rebuilt when an input changes.
import { existsSync, linkSync, readdirSync, readFileSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { SourceMap, type SourceMapping } from 'node:module';
import { describe, expect, it } from 'vitest';
import {
  asciiOnly,
  buildServerIfNeeded,
  ownSourcesOnly,
  pruneChunks,
  serverBundleReason,
  SERVER_BUNDLE,
  // @ts-expect-error a plain .mjs script without types
} from '../../scripts/lib/serverBundle.mjs';

const ROOT = path.resolve(import.meta.dirname, '..', '..');

/** Where a generated position maps to; an unmapped one has no source. */
const origin = (map: SourceMap, line: number, column: number) => map.findEntry(line, column) as Partial<SourceMapping>;

describe('the server bundle', () => {
  it('keeps each source file its own import.meta.url and is stale once an input changes', async () => {
    expect(await buildServerIfNeeded()).toBe(SERVER_BUNDLE);
    expect(serverBundleReason()).toBeNull();
    const [banner, ...rest] = readFileSync(SERVER_BUNDLE, 'utf8').split('\n');
    const bundle = rest.join('\n');
    expect(bundle).toContain(JSON.stringify(pathToFileURL(path.join(ROOT, 'server', 'db', 'migrate.ts')).href));
    // Only the banner's require (for the CommonJS packages inside) resolves from the bundle's own place.
    expect(banner).toMatch(/CreateRequire\(import\.meta\.url\)/);
    expect(bundle).not.toMatch(/import\.meta\.url/);
    // Fastify and zod are inside; PGlite is loaded as installed (its wasm lies next to it).
    expect(bundle).not.toMatch(/from ?["'](fastify|zod)["']/);
    expect(bundle).toMatch(/from ?["']@electric-sql\/pglite["']/);
    // ASCII only, so node reads it as a one-byte string (a two-byte one decoded and parsed about twice as slowly).
    expect(bundle).not.toMatch(/[^\x00-\x7f]/);

    const input = path.join(ROOT, 'server', 'startupTimer.ts');
    const { atime, mtime } = statSync(input);
    try {
      utimesSync(input, atime, new Date(Date.now() + 60_000));
      expect(serverBundleReason()).toBe('server/startupTimer.ts changed');
    } finally {
      utimesSync(input, atime, mtime);
    }
  }, 60_000);

  it('replaces its files instead of writing into them: a hard-linked copy keeps its own bundle', async () => {
    await buildServerIfNeeded();
    const copy = `${SERVER_BUNDLE}.linked-copy`;
    rmSync(copy, { force: true });
    linkSync(SERVER_BUNDLE, copy);
    const before = readFileSync(copy, 'utf8');
    const input = path.join(ROOT, 'server', 'startupTimer.ts');
    const { atime, mtime } = statSync(input);
    try {
      utimesSync(input, atime, new Date(Date.now() + 60_000));
      await buildServerIfNeeded();
      expect(statSync(SERVER_BUNDLE).ino).not.toBe(statSync(copy).ino);
      expect(readFileSync(copy, 'utf8')).toBe(before);
      expect(readdirSync(path.dirname(SERVER_BUNDLE)).filter((f) => f.endsWith('.tmp'))).toEqual([]);
    } finally {
      utimesSync(input, atime, mtime);
      rmSync(copy, { force: true });
    }
  }, 60_000);

  it('escapes non-ASCII characters so that strings, names and regular expressions mean the same', () => {
    const code =
      'const caf\u00e9 = "“quoted” — ok"; const re = /[“”…]+/g; const emoji = /😀/u; const pair = /😀/; const word = /[\\p{L}’]+/gu;';
    const escaped = asciiOnly(code);
    expect(escaped).not.toMatch(/[^\x00-\x7f]/);
    const run = (src: string) =>
      new Function(
        `${src}; return [café, re.source && '“a” … b'.match(re), emoji.test('x😀'), pair.test('😀'), 'l’eau'.match(word)];`,
      )();
    expect(run(escaped)).toEqual(run(code));
  });

  it("maps the project's own code to its sources and leaves the packages' code unmapped", async () => {
    await buildServerIfNeeded();
    const map = new SourceMap(JSON.parse(readFileSync(`${SERVER_BUNDLE}.map`, 'utf8')));
    const sources: string[] = map.payload.sources;
    expect(sources.length).toBeGreaterThan(100);
    expect(sources.filter((s) => s.includes('node_modules'))).toEqual([]);
    const lines = readFileSync(SERVER_BUNDLE, 'utf8').split('\n');
    // Where the bundle defines a function of ours and one of Fastify's: the first maps back, the second does not.
    const at = (needle: string) => {
      const line = lines.findIndex((l) => l.includes(needle));
      return { line, column: lines[line]!.indexOf(needle) };
    };
    const own = at('function startupTimer(');
    expect(origin(map, own.line, own.column + 9).originalSource).toMatch(/server\/startupTimer\.ts$/);
    const pkg = at('function fastify(');
    const entry = origin(map, pkg.line, pkg.column + 9);
    expect(entry.originalSource ?? '').not.toMatch(/server\//);
  }, 60_000);

  it('drops the mappings into packages from a map, unmapping their ranges', () => {
    // Line 0: own code at 0, a package's at 10, own again at 20. Line 1: the package's at 0, own at 10.
    const map = {
      version: 3,
      sources: ['../../../../server/a.ts', '../../../fastify/b.js'],
      names: ['own', 'pkg'],
      mappings: 'AAAAA,UCAAC,UDCA;ACAA,UDCA',
    };
    const mapDir = path.join(ROOT, 'node_modules', '.cache', 'agora', 'server');
    const trimmed = JSON.parse(ownSourcesOnly(JSON.stringify(map), mapDir));
    expect(trimmed.sources).toEqual(['../../../../server/a.ts']);
    expect(trimmed.names).toEqual(['own']);
    const sm = new SourceMap(trimmed);
    expect(origin(sm, 0, 5).originalSource).toMatch(/server\/a\.ts$/);
    expect(origin(sm, 0, 12).originalSource).toBeUndefined();
    expect(origin(sm, 0, 22)).toMatchObject({ originalLine: 1 });
    expect(origin(sm, 1, 0).originalSource).toBeUndefined();
    expect(origin(sm, 1, 12)).toMatchObject({ originalLine: 2 });
  });

  it('puts later parts in chunks of their own, keeps zod in English only, and prunes old chunks after an hour', async () => {
    await buildServerIfNeeded();
    const dir = path.dirname(SERVER_BUNDLE);
    const main = readFileSync(SERVER_BUNDLE, 'utf8');
    const statics = [...main.slice(0, 20_000).matchAll(/from ?"\.\/(chunk-[A-Z0-9]+\.mjs)"/g)].map((m) => m[1]!);
    const lazy = [...main.matchAll(/import\("\.\/(chunk-[A-Z0-9]+\.mjs)"\)/g)].map((m) => m[1]!);
    expect(lazy.length).toBeGreaterThan(0);
    const atStart = [main, ...statics.map((c) => readFileSync(path.join(dir, c), 'utf8'))].join('\n');
    // The address rule's undici is not read at start; zod's messages are there in English, in no other language.
    expect(atStart).not.toContain('undici/lib/dispatcher');
    expect(atStart).toContain('Invalid input');
    expect(atStart).not.toMatch(/Neplatn|Ung\\u00fcltig/);

    // An unreferenced chunk goes once it is an hour old; a newer one, and the current ones, stay.
    const current = new Set(readdirSync(dir).filter((f) => f.startsWith('chunk-')));
    const old = path.join(dir, 'chunk-OLDTEST1.mjs');
    const recent = path.join(dir, 'chunk-NEWTEST1.mjs');
    writeFileSync(old, '');
    writeFileSync(recent, '');
    const now = Date.now();
    utimesSync(old, new Date(now - 2 * 3_600_000), new Date(now - 2 * 3_600_000));
    try {
      pruneChunks(current, now);
      expect(existsSync(old)).toBe(false);
      expect(existsSync(recent)).toBe(true);
      for (const c of current) expect(existsSync(path.join(dir, c))).toBe(true);
    } finally {
      rmSync(old, { force: true });
      rmSync(recent, { force: true });
    }
  });
});
