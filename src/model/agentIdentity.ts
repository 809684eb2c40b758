// An agent's identity as a reader sees it everywhere (canvas node, bubbles, speaker chips, charts): a colour and
// an avatar. Both are optional on the agent (`color`, `avatar`); without them they are derived from the id and
// the name, so an agent keeps the same look across reloads and devices. Pure.
import type { Agent } from '../schemas/agents';

export { AGENT_PALETTE, agentColor, autoColor } from '../shared/agentColors';

type Identified = Pick<Agent, 'id'> & Partial<Pick<Agent, 'name' | 'color' | 'avatar'>>;

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
