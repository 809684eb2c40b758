import type { FormatOption } from './types';
import { messages } from './types';

// Moderated: the person or an agent gives the floor. A moderator not taking part falls back to the person.

export const moderated = {
  kind: 'moderated',
  label: 'Moderated',
  start: 'Start moderated discussion',
  line: (c) =>
    `A moderator gives the floor: you (nobody speaks until you choose) or an agent; up to ${messages(c.turns)}.`,
  roles: [{ role: 'moderator', label: 'Moderator', person: true }],
  hearsCanvas: true,
  endsItself: true,
  stages: null,
  send: (f, agentIds) => ({
    kind: 'moderated',
    moderator: f.moderator !== 'human' && agentIds.includes(f.moderator) ? f.moderator : 'human',
  }),
} satisfies FormatOption;
