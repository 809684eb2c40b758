import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { claimDataDir } from '../../server/db/dataDirLock';

// PGlite serves one process: a second server on the same DATA_DIR is refused, and says what to do instead.
describe('the embedded database is one process', () => {
  let dir = '';
  afterEach(async () => {
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it('refuses a DATA_DIR held by another live process and takes over one left by a dead process', async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'agora-lock-'));
    await writeFile(path.join(dir, 'server.pid'), String(process.ppid));
    await expect(claimDataDir(dir)).rejects.toThrow(/serves one process only.*DATABASE_URL/);
    await writeFile(path.join(dir, 'server.pid'), '2147480000');
    const release = await claimDataDir(dir);
    expect(await readFile(path.join(dir, 'server.pid'), 'utf8')).toBe(String(process.pid));
    await release();
    const again = await claimDataDir(dir);
    await again();
  });
});
