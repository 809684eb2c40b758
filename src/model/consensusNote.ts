// The consensus figure in words beside the number when the evidence rule lowered it: with 'evidence required' on,
// a holder of the leading option that gave no evidence counts at half its confidence (server/engine/consensus.ts),
// so the figure can drop with nobody changing their mind; the panels say why.

/** 'confidence halved for 2 answers without evidence', or null when the rule did not apply. */
export function halvedNote(halved: number | null | undefined): string | null {
  if (!halved || halved < 1) return null;
  return `confidence halved for ${halved} answer${halved === 1 ? '' : 's'} without evidence`;
}

/** 'Agreement 30% — confidence halved for 2 answers without evidence' (the figure alone when the rule did not apply). */
export function agreementLine(score: number, halved: number | null | undefined): string {
  const note = halvedNote(halved);
  return `Agreement ${Math.round(score * 100)}%${note ? ` — ${note}` : ''}`;
}
