// Deterministic randomness for the offline model: the same turn always yields the same answer,
// so discussions, transcripts and tests replay exactly. Never Math.random.

/** FNV-1a, 32 bit. */
export function hash32(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

export interface Rng {
  /** Uniform in [0, 1). */
  next(): number;
  pick<T>(items: readonly T[]): T;
  /** Uniform in [-amplitude, amplitude]. */
  jitter(amplitude: number): number;
}

/** mulberry32: tiny, fast and good enough to vary phrasing. */
export function seededRng(seed: number): Rng {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return {
    next,
    pick: (items) => items[Math.floor(next() * items.length) % items.length],
    jitter: (amplitude) => (next() * 2 - 1) * amplitude,
  };
}
