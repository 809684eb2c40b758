// The server bundle `npm start` runs (scripts/lib/serverBundle.mjs): built from the sources, each file keeping its
// own import.meta.url (the migrations folder is found from it), the packages inside but those that must stay as
// installed, and rebuilt when an input changes.
import { linkSync, readdirSync, readFileSync, rmSync, statSync, utimesSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
// @ts-expect-error a plain .mjs script without types
import { asciiOnly, buildServerIfNeeded, serverBundleReason, SERVER_BUNDLE } from '../../scripts/lib/serverBundle.mjs';

const ROOT = path.resolve(import.meta.dirname, '..', '..');

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
});
