// An agent's colour, worked out the same way by the app and the server (the server gives an agent made without
// one the colour the editor would have given it). Pure.

/**
 * Eight colours for agents, chosen to be told apart at a glance: every pair is at least ΔE2000 20 apart (the old
 * twelve had near-identical blues and purples), and each stays readable as text on every surface it sits on and as
 * a fill behind white initials (≥ 4.5:1). Ordered by hue for the editor's swatches. tests/model/agentColour.test.ts
 * checks both.
 */
export const AGENT_PALETTE = [
  '#1e3a8a',
  '#0e7490',
  '#065f46',
  '#4d7c0f',
  '#b45309',
  '#9f1239',
  '#a21caf',
  '#44403c',
] as const;

/** FNV-1a over the id: stable, cheap, spreads UUIDs evenly over the palette. */
function hash(s: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) {
    h ^= s.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

type Identified = { id: string; color?: string | null };

/** The agent's chosen colour when it is a valid #rrggbb, else one derived from its id. */
export function agentColor(agent: Identified): string {
  const own = agent.color;
  if (own && /^#[0-9a-fA-F]{6}$/.test(own)) return own.toLowerCase();
  return AGENT_PALETTE[hash(agent.id) % AGENT_PALETTE.length];
}

/**
 * The automatic colour for a new agent: the palette colour its name hashes to, or, when an agent on the canvas
 * already wears it, the next one nobody wears (then the least worn), so the agents of one workspace differ.
 */
export function autoColor(seed: string, taken: readonly string[] = []): string {
  const start = hash(seed) % AGENT_PALETTE.length;
  const worn = (c: string) => taken.filter((t) => t.toLowerCase() === c).length;
  let best: string = AGENT_PALETTE[start];
  for (let i = 0; i < AGENT_PALETTE.length; i++) {
    const c = AGENT_PALETTE[(start + i) % AGENT_PALETTE.length];
    if (worn(c) < worn(best)) best = c;
  }
  return best;
}
