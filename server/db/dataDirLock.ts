import { open, readFile, rm } from 'node:fs/promises';
import path from 'node:path';

// Why this file: PGlite is PostgreSQL inside this process; two processes opening one DATA_DIR would corrupt it.
// The embedded database therefore serves exactly one process, and a second one pointed at the same directory is
// refused at start with a message that says what to do instead (DATABASE_URL). A lock file left by a process that
// died (SIGKILL) is taken over: its pid is no longer alive.

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
};

/** Claims DATA_DIR for this process; resolves with the release function. Throws when another live process holds it. */
export async function claimDataDir(dataDir: string): Promise<() => Promise<void>> {
  const file = path.join(dataDir, 'server.pid');
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const fh = await open(file, 'wx');
      await fh.writeFile(String(process.pid));
      await fh.close();
      let released = false;
      return async () => {
        if (released) return;
        released = true;
        await rm(file, { force: true });
      };
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
      const pid = Number((await readFile(file, 'utf8').catch(() => '')).trim());
      if (Number.isInteger(pid) && pid > 0 && pid !== process.pid && alive(pid)) {
        throw new Error(
          `Another Agora server (pid ${pid}) is using the embedded database in ${dataDir}. The embedded database (PGlite) serves one process only; ` +
            'to run more than one process, point them all at one PostgreSQL with DATABASE_URL (docs/deployment.md).',
        );
      }
      await rm(file, { force: true });
    }
  }
  throw new Error(`Could not claim ${dataDir} for this server`);
}
