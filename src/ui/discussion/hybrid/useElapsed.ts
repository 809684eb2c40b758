// The header's running duration: a display clock, local to the view (it drives no flow).
import { useEffect, useState } from 'react';

export function useElapsed(startedAt: number | null, running: boolean): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    if (!running) return;
    const id = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(id);
  }, [running]);
  // Once the run ends the clock stops ticking, so the last reading stays as the run's duration.
  return startedAt ? Math.max(0, now - startedAt) : 0;
}

export const formatDuration = (ms: number) => {
  const s = Math.floor(ms / 1000);
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, '0')}`;
};
