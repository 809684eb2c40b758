// Completing '@name' in the message box: what is being typed after an '@' at the caret, the agents it may name,
// and the text once one is chosen (a name with a space is quoted: @"Vera Lind"). Pure.

export interface MentionQuery {
  /** Where the '@' is. */
  start: number;
  query: string;
}

export function mentionQuery(text: string, caret: number): MentionQuery | null {
  const before = text.slice(0, caret);
  const m = /(^|\s)@"?([^\s@"]{0,40})$/u.exec(before);
  if (!m) return null;
  return { start: before.length - m[0].length + m[1].length, query: m[2] };
}

export const mentionCandidates = (names: readonly string[], q: MentionQuery | null): string[] =>
  q ? names.filter((n) => n.toLowerCase().startsWith(q.query.toLowerCase())).slice(0, 8) : [];

export function completeMention(
  text: string,
  caret: number,
  q: MentionQuery,
  name: string,
): { text: string; caret: number } {
  const token = /\s/.test(name) ? `@"${name}" ` : `@${name} `;
  const next = text.slice(0, q.start) + token + text.slice(caret);
  return { text: next, caret: q.start + token.length };
}
