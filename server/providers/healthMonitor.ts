import type { Health } from '../../src/schemas/system';

// /health answers from the last probed state, never with a probe of its own: a poll (a load balancer, a page
// left open, a benchmark) then costs a lookup, and the database and the engines are probed on a steady clock
// whatever the traffic.

export interface HealthMonitor {
  /** The latest state; until the first probe has finished, that probe. */
  current(): Health | Promise<Health>;
  stop(): void;
}

/**
 * Probes at once, then again `everyMs` after each probe finishes (a slow probe never overlaps the next). The
 * timer does not keep the process alive.
 */
export function startHealthMonitor(probe: () => Promise<Health>, everyMs: number): HealthMonitor {
  let latest: Health | null = null;
  let timer: NodeJS.Timeout | null = null;
  let stopped = false;
  const run = (): Promise<Health> =>
    probe().then((h) => {
      latest = h;
      if (!stopped) {
        timer = setTimeout(() => void run(), everyMs);
        timer.unref();
      }
      return h;
    });
  const first = run();
  return {
    current: () => latest ?? first,
    stop() {
      stopped = true;
      if (timer) clearTimeout(timer);
    },
  };
}
