/** The URL a person should open for a server bound to `host`: wildcard and loopback binds read as localhost. */
export function publicUrl(host, port) {
  const local = !host || ['0.0.0.0', '::', '127.0.0.1', '::1', 'localhost'].includes(host);
  const h = local ? 'localhost' : host.includes(':') ? `[${host}]` : host;
  return `http://${h}:${port}`;
}

/**
 * Polls GET {base}/health until it answers with one of `accept` statuses (any status when omitted).
 * Resolves with the status; rejects after `timeoutMs` or when `alive()` turns false (the server died).
 */
export async function waitForHealth(base, { timeoutMs = 60_000, intervalMs = 100, accept, alive = () => true } = {}) {
  const deadline = Date.now() + timeoutMs;
  let last = 'no answer';
  while (Date.now() < deadline) {
    if (!alive()) throw new Error(`the server exited before ${base}/health answered`);
    try {
      const res = await fetch(`${base}/health`, { signal: AbortSignal.timeout(2000) });
      await res.arrayBuffer();
      if (!accept || accept.includes(res.status)) return res.status;
      last = `HTTP ${res.status}`;
    } catch (e) {
      last = e?.cause?.code ?? e?.message ?? String(e);
    }
    await new Promise((r) => setTimeout(r, intervalMs));
  }
  throw new Error(`${base}/health did not answer within ${timeoutMs} ms (last: ${last})`);
}
