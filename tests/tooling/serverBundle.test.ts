// The server bundle `npm start` runs (scripts/lib/serverBundle.mjs): built from the sources, each file keeping its
// own import.meta.url (the migrations folder is found from it), and rebuilt when an input changes.
import { readFileSync, statSync, utimesSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
// @ts-expect-error a plain .mjs script without types
import { buildServerIfNeeded, serverBundleReason, SERVER_BUNDLE } from '../../scripts/lib/serverBundle.mjs';

const ROOT = path.resolve(import.meta.dirname, '..', '..');

describe('the server bundle', () => {
  it('keeps each source file its own import.meta.url and is stale once an input changes', async () => {
    expect(await buildServerIfNeeded()).toBe(SERVER_BUNDLE);
    expect(serverBundleReason()).toBeNull();
    const bundle = readFileSync(SERVER_BUNDLE, 'utf8');
    expect(bundle).toContain(JSON.stringify(pathToFileURL(path.join(ROOT, 'server', 'db', 'migrate.ts')).href));
    expect(bundle).not.toMatch(/import\.meta\.url/);

    const input = path.join(ROOT, 'server', 'startupTimer.ts');
    const { atime, mtime } = statSync(input);
    try {
      utimesSync(input, atime, new Date(Date.now() + 60_000));
      expect(serverBundleReason()).toBe('server/startupTimer.ts changed');
    } finally {
      utimesSync(input, atime, mtime);
    }
  }, 60_000);
});
