// The header's running duration as m:ss (the time itself comes from the run's clock in the machine).
export const formatDuration = (ms: number) => {
  const s = Math.floor(ms / 1000);
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, '0')}`;
};
