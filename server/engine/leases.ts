import type { AppContext } from '../context';

// Why this file: with more than one process, a running discussion belongs to the process that runs it through a
// lease in its row (discussions.owner_id, lease_until). The owner renews the leases of all its running discussions
// in one UPDATE every third of the lease time; a process that dies stops renewing, so its discussions stop counting
// against the per-user limit and become leftovers once the lease runs out.

export function startLeaseKeeper(ctx: AppContext, log: { warn(obj: object, msg: string): void }): () => Promise<void> {
  const leaseMs = ctx.config.discussionLeaseMs;
  let running: Promise<unknown> = Promise.resolve();
  const renew = () =>
    (running = ctx.db
      .query("UPDATE discussions SET lease_until = now() + $2 * interval '1 millisecond' WHERE owner_id = $1 AND status = 'running'", [ctx.instanceId, leaseMs])
      .catch((err) => log.warn({ err }, 'could not renew the leases of running discussions')));
  const timer = setInterval(renew, Math.max(50, Math.floor(leaseMs / 3)));
  timer.unref();
  return async () => {
    clearInterval(timer);
    await running;
  };
}
