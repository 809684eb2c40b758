import type { PositionChange } from '../../../src/schemas/positions';

// How an agent came to a new option: after an argument it names (a point it answers, or evidence), or by moving
// to the leading option without one. Pure; the turn's record keeps the answer (docs/protocol.md#positions).

export interface ChangeCounts {
  argument: number;
  majority: number;
}

export const noChanges = (): ChangeCounts => ({ argument: 0, majority: 0 });

/**
 * `previous` → `next` is a change when both are options and they differ. It is 'argument' when the turn names what
 * moved it (`movedBy`) or cites evidence, else 'majority' when `next` was the leading option before the turn;
 * otherwise null (a move to a minority option with no reason given is neither).
 */
export function classifyChange(
  previous: string | null | undefined,
  next: string | null,
  leaderBefore: string | null,
  reason: { movedBy?: string | null; evidence: readonly string[] },
): PositionChange | null {
  if (!previous || !next || previous === next) return null;
  if (reason.movedBy?.trim() || reason.evidence.some((e) => e.trim())) return 'argument';
  return next === leaderBefore ? 'majority' : null;
}

export function countChange(counts: ChangeCounts, change: PositionChange | null): ChangeCounts {
  return change ? { ...counts, [change]: counts[change] + 1 } : counts;
}

/** The changes of mind in one sentence (the summary prompt and the PDF say it so). */
export function changesSentence(c: ChangeCounts): string {
  if (!c.argument && !c.majority) return 'No agent changed its position.';
  const n = (k: number, one: string) => `${k} ${one}`;
  return `Changes of position: ${n(c.argument, 'changed after an argument')}, ${n(c.majority, 'followed the majority')}.`;
}
