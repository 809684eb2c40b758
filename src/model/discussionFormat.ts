// The 'Format' setting in plain words and the `format` object the first frame carries (docs/protocol.md#formats).
// Round table is today's discussion and sends no format. Pure.
import type { DiscussionFormat, FormatKind } from '../schemas/format';
import type { PanelFormat } from '../schemas/settings';

export interface FormatOption {
  kind: FormatKind;
  label: string;
  /** What it does and roughly how many turns it takes, for `agents` agents and `turns` turns. */
  line: (agents: number, turns: number) => string;
}

export const FORMAT_OPTIONS: readonly FormatOption[] = [
  {
    kind: 'round_table',
    label: 'Round table',
    line: (_n, t) => `The agents speak in turn, about ${t} turns; @name someone to give them the next turn.`,
  },
  {
    kind: 'moderated',
    label: 'Moderated',
    line: (_n, t) => `A moderator gives the floor: you (nobody speaks until you choose) or an agent; up to ${t} turns.`,
  },
  {
    kind: 'council',
    label: 'Council',
    line: (n) => `Independent answers, an anonymous ranking, then the chair's final answer: ${2 * n + 1} turns.`,
  },
  {
    kind: 'debate',
    label: 'Debate',
    line: (n) =>
      `For against Against in opening, rebuttal and closing; a judge votes before and after: about ${3 * Math.max(2, n - 1) + 2} turns.`,
  },
];

export const formatOption = (kind: FormatKind) => FORMAT_OPTIONS.find((o) => o.kind === kind) ?? FORMAT_OPTIONS[0];

/** The debate's sides as the server will split them: the agents other than the judge, the first half For. */
export function debateSplit(agentIds: readonly string[], judge: string): { for: string[]; against: string[] } {
  const debaters = agentIds.filter((id) => id !== judge);
  const half = Math.ceil(debaters.length / 2);
  return { for: debaters.slice(0, half), against: debaters.slice(half) };
}

/** The `format` to send, or undefined for the round table. Roles naming an agent not taking part fall back. */
export function formatOf(f: PanelFormat | undefined, agentIds: readonly string[]): DiscussionFormat | undefined {
  if (!f || f.kind === 'round_table') return undefined;
  const inRun = (id: string) => agentIds.includes(id);
  switch (f.kind) {
    case 'moderated':
      return { kind: 'moderated', moderator: f.moderator !== 'human' && inRun(f.moderator) ? f.moderator : 'human' };
    case 'council':
      return { kind: 'council', ...(f.chair && inRun(f.chair) ? { chair: f.chair } : {}) };
    case 'debate': {
      const judge = f.judge !== 'human' && inRun(f.judge) && agentIds.length >= 3 ? f.judge : 'human';
      return { kind: 'debate', judge, sides: debateSplit(agentIds, judge) };
    }
  }
}

/** A stored discussion's format, in the setting's words (History); no format is the round table. */
export const formatLabel = (kind: string | null | undefined) =>
  FORMAT_OPTIONS.find((o) => o.kind === kind)?.label ?? 'Round table';
