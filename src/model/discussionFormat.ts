// The 'Format' setting in plain words and the `format` object the first frame carries (docs/protocol.md#formats).
// Round table is today's discussion and sends no format. Pure.
import type { DiscussionFormat, FormatKind } from '../schemas/format';
import type { PanelFormat } from '../schemas/settings';

/** What a format's line needs to count its messages. */
export interface FormatCounts {
  /** Agents taking part (at least two). */
  agents: number;
  /** The turns setting (round table, moderated). */
  turns: number;
  /** Agents who argue in a debate: all of them with the person judging, one fewer with an agent judging. */
  debaters: number;
}

export interface FormatOption {
  kind: FormatKind;
  label: string;
  /** The Start button: it names the format that will run (both panels). */
  start: string;
  /**
   * What it does and how many messages it writes, in the word the panels' counters use: a council's rankings and a
   * debate's votes are rows, not messages, so they are said but not counted.
   */
  line: (c: FormatCounts) => string;
}

const messages = (k: number) => `${k} message${k === 1 ? '' : 's'}`;

export const FORMAT_OPTIONS: readonly FormatOption[] = [
  {
    kind: 'round_table',
    label: 'Round table',
    start: 'Start round table',
    line: (c) => `The agents speak in turn, about ${messages(c.turns)}; @name someone to give them the next turn.`,
  },
  {
    kind: 'moderated',
    label: 'Moderated',
    start: 'Start moderated discussion',
    line: (c) =>
      `A moderator gives the floor: you (nobody speaks until you choose) or an agent; up to ${messages(c.turns)}.`,
  },
  {
    kind: 'council',
    label: 'Council',
    start: 'Start council',
    line: (c) =>
      `Each agent answers on its own, the answers are ranked anonymously, then the chair writes the final answer: ${messages(c.agents + 1)} and a ranking.`,
  },
  {
    kind: 'debate',
    label: 'Debate',
    start: 'Start debate',
    line: (c) =>
      `Two sides, For and Against, argue in an opening, a rebuttal and a closing; a judge votes before and after: ${messages(3 * c.debaters)} and two votes.`,
  },
];

export const formatOption = (kind: FormatKind) => FORMAT_OPTIONS.find((o) => o.kind === kind) ?? FORMAT_OPTIONS[0];

/** The Start button's words for a format: 'Start round table', 'Start council'… */
export const startLabel = (kind: FormatKind | undefined) => formatOption(kind ?? 'round_table').start;

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
