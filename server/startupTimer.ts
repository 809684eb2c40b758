// The start-up line: where a start's time went, one figure per phase, so a slow start names its cause in the log.
// Phases count from the process's start: under `npm start` the first one also holds its build checks.

export interface StartupTimer {
  /** Closes the phase that ran since the last mark (or since the process began) under `name`. */
  mark(name: string, note?: string): void;
  /** "started in 812 ms: modules 300, database 350 (copied), …". */
  line(): string;
}

export function startupTimer(): StartupTimer {
  const parts: { name: string; ms: number; note?: string }[] = [];
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
