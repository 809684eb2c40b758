// The start-up line: where a start's time went, one figure per phase, so a slow start names its cause in the log.
// `npm start` (scripts/start.mjs) passes the moment it began in AGORA_LAUNCHED_AT; the part before this process
// existed (the build check, spawning node) is then shown as 'launcher'.

export interface StartupTimer {
  /** Closes the phase that ran since the last mark (or since the process began) under `name`. */
  mark(name: string, note?: string): void;
  /** "started in 812 ms: launcher 60, modules 300, database 350 (copied), …". */
  line(): string;
}

export function startupTimer(env: NodeJS.ProcessEnv = process.env): StartupTimer {
  const parts: { name: string; ms: number; note?: string }[] = [];
  const launchedAt = Number(env.AGORA_LAUNCHED_AT);
  const launcherMs = Number.isFinite(launchedAt) && launchedAt > 0 ? Math.max(0, performance.timeOrigin - launchedAt) : 0;
  if (launcherMs > 0) parts.push({ name: 'launcher', ms: launcherMs });
  let last = 0; // performance.now() counts from this process's start
  return {
    mark(name, note) {
      const now = performance.now();
      parts.push({ name, ms: now - last, note });
      last = now;
    },
    line() {
      const total = parts.reduce((n, p) => n + p.ms, 0);
      return `started in ${Math.round(total)} ms: ${parts.map((p) => `${p.name} ${Math.round(p.ms)}${p.note ? ` (${p.note})` : ''}`).join(', ')}`;
    },
  };
}
