import type { AgentRef } from '../plan';

// '@Vera', '@"Vera Lind"' (any case): the agents a message names, in the order it names them, as on the canvas.

const QUOTED = /@"([^"\n]{1,120})"/g;
const BARE = /(?:^|[^\w@])@([\p{L}\p{N}_][\p{L}\p{N}_.'-]{0,60})/gu;

export function mentionsIn(text: string, agents: readonly AgentRef[]): AgentRef[] {
  const found: Array<{ at: number; agent: AgentRef }> = [];
  const byName = (name: string) => agents.find((a) => a.name.toLowerCase() === name.trim().toLowerCase());
  for (const m of text.matchAll(QUOTED)) {
    const agent = byName(m[1]);
    if (agent) found.push({ at: m.index ?? 0, agent });
  }
  for (const m of text.matchAll(BARE)) {
    const word = m[1].replace(/[.'-]+$/, '');
    const at = (m.index ?? 0) + m[0].indexOf('@');
    // A name with spaces written bare ('@Vera Lind'): the longest agent name the text continues with.
    const rest = text.slice(at + 1).toLowerCase();
    const agent =
      [...agents]
        .sort((a, b) => b.name.length - a.name.length)
        .find((a) => {
          const n = a.name.toLowerCase();
          return rest.startsWith(n) && !/[\p{L}\p{N}_]/u.test(rest.charAt(n.length));
        }) ?? byName(word);
    if (agent) found.push({ at, agent });
  }
  return found
    .sort((a, b) => a.at - b.at)
    .map((f) => f.agent)
    .filter((a, i, all) => all.indexOf(a) === i);
}
