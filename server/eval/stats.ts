// The figures of a result: Wilson's score interval for a proportion, and the vote over several answers.

/** 95 % Wilson score interval for `correct` out of `n` (sound near 0 and 1, unlike the normal approximation). */
export function wilson(correct: number, n: number, z = 1.959964): { low: number; high: number } | null {
  if (n <= 0) return null;
  const p = correct / n;
  const z2 = z * z;
  const centre = (p + z2 / (2 * n)) / (1 + z2 / n);
  const half = (z * Math.sqrt((p * (1 - p)) / n + z2 / (4 * n * n))) / (1 + z2 / n);
  return { low: Math.max(0, centre - half), high: Math.min(1, centre + half) };
}

/**
 * The most frequent readable answer; a tie goes to the answer given first (so a vote is the same on every run).
 * Null when no answer was readable.
 */
export function majority(answers: Array<string | null>): string | null {
  const counts = new Map<string, number>();
  for (const a of answers) if (a !== null) counts.set(a, (counts.get(a) ?? 0) + 1);
  let best: string | null = null;
  let bestCount = 0;
  for (const [a, c] of counts) {
    if (c > bestCount) {
      best = a;
      bestCount = c;
    }
  }
  return best;
}
