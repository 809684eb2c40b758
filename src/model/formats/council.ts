import type { FormatOption } from './types';
import { messages } from './types';

// Council: answers on their own, an anonymous ranking, the chair's final answer. A chair not taking part is left
// to the server (the first agent).

export const council = {
  kind: 'council',
  label: 'Council',
  start: 'Start council',
  line: (c) =>
    `Each agent answers on its own, the answers are ranked anonymously, then the chair writes the final answer: ${messages(c.agents + 1)} and a ranking.`,
  roles: [{ role: 'chair', label: 'Chair', person: false }],
  hearsCanvas: false,
  endsItself: true,
  stages: 'answers, ranking, final answer',
  send: (f, agentIds) => ({ kind: 'council', ...(f.chair && agentIds.includes(f.chair) ? { chair: f.chair } : {}) }),
} satisfies FormatOption;
