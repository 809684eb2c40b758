import { createServer } from 'node:net';

/** A port nothing listens on right now (the OS picks it), on the given loopback host. */
export function freePort(host = '127.0.0.1') {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.unref();
    srv.on('error', reject);
    srv.listen(0, host, () => {
      const { port } = srv.address();
      srv.close(() => resolve(port));
    });
  });
}

export const exited = (child) => child.exitCode !== null || child.signalCode !== null;

/** Resolves true once the child has exited, false when `ms` pass first. */
export function waitExit(child, ms) {
  if (exited(child)) return Promise.resolve(true);
  return new Promise((resolve) => {
    const timer = setTimeout(() => resolve(false), ms);
    child.once('exit', () => {
      clearTimeout(timer);
      resolve(true);
    });
  });
}

/**
 * SIGTERM, then after `graceMs` SIGKILL to the child's whole process group (when it was spawned detached,
 * this also reaches whatever it started).
 */
export async function stopProcess(child, { graceMs = 10_000, onForce } = {}) {
  if (!child || exited(child)) return;
  child.kill('SIGTERM');
  if (await waitExit(child, graceMs)) return;
  onForce?.();
  try {
    process.kill(-child.pid, 'SIGKILL');
  } catch {
    child.kill('SIGKILL');
  }
  await waitExit(child, 5_000);
}
