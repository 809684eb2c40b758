// An agent's identity as a reader sees it everywhere (canvas node, bubbles, speaker chips, charts): a colour and
// an avatar. Both are optional on the agent (`color`, `avatar`); without them they are derived from the id and
// the name, so an agent keeps the same look across reloads and devices. Pure.
import type { Agent } from '../schemas/agents';

/** Twelve hues that stay readable as text on white and as a fill behind white initials (WCAG AA, ≥ 4.5:1). */
export const AGENT_PALETTE = [
  '#1d4ed8',
  '#b91c1c',
  '#047857',
  '#7c3aed',
  '#b45309',
  '#0e7490',
  '#be185d',
  '#4d7c0f',
  '#4338ca',
  '#9a3412',
  '#0f766e',
  '#a21caf',
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

type Identified = Pick<Agent, 'id'> & Partial<Pick<Agent, 'name' | 'color' | 'avatar'>>;

/** The agent's chosen colour when it is a valid #rrggbb, else one derived from its id. */
export function agentColor(agent: Identified): string {
  const own = agent.color;
  if (own && /^#[0-9a-fA-F]{6}$/.test(own)) return own.toLowerCase();
  return AGENT_PALETTE[hash(agent.id) % AGENT_PALETTE.length];
}

/** Up to two initials from the name's words ('Ada Lovelace' → 'AL', 'bo' → 'B'); '?' for no name. */
export function agentInitials(name: string | null | undefined): string {
  const words = (name ?? '').trim().split(/\s+/).filter(Boolean);
  if (words.length === 0) return '?';
  const first = [...words[0]][0] ?? '';
  const second = words.length > 1 ? ([...words[words.length - 1]][0] ?? '') : '';
  return (first + second).toUpperCase();
}

/**
 * What the avatar circle shows: the chosen emoji/text when set (and, given `canDraw`, when the system can draw
 * it: an emoji with no font would be an empty box), else the initials.
 */
export function agentAvatar(agent: Identified, canDraw?: (text: string) => boolean): string {
  const own = agent.avatar?.trim();
  return own && (!canDraw || canDraw(own)) ? own : agentInitials(agent.name);
}
