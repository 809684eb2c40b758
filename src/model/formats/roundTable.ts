import type { FormatOption } from './types';
import { messages } from './types';

// The round table: today's discussion. It sends no format; the person @names an agent to give it the next turn.

export const roundTable = {
  kind: 'round_table',
  label: 'Round table',
  start: 'Start round table',
  line: (c) => `The agents speak in turn, about ${messages(c.turns)}; @name someone to give them the next turn.`,
  roles: [],
  hearsCanvas: true,
  endsItself: false,
  stages: null,
  send: () => undefined,
} satisfies FormatOption;
