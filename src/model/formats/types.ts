import type { DiscussionFormat, FormatKind } from '../../schemas/format';
import type { PanelFormat } from '../../schemas/settings';

/** What a format's line needs to count its messages. */
export interface FormatCounts {
  /** Agents taking part (at least two). */
  agents: number;
  /** The turns setting (round table, moderated). */
  turns: number;
  /** Agents who argue in a debate: all of them with the person judging, one fewer with an agent judging. */
  debaters: number;
}

export interface FormatAgent {
  id: string;
  name: string;
}

/** A role chosen under the Format select. */
export interface FormatRole {
  role: 'moderator' | 'chair' | 'judge';
  label: string;
  /** 'You' is offered (the person may take it); otherwise an agent, the first by default. */
  person: boolean;
}

/** One format as the panels show and send it (the server's definition is server/engine/formats/<kind>.ts). */
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
  /** The roles chosen under the select, in order. */
  roles: readonly FormatRole[];
  /** One more line under the roles (a debate's sides as they will split). */
  note?: (value: PanelFormat, agents: readonly FormatAgent[]) => string;
  /** The canvas's hearing rule applies: the line on canvas connections is shown. */
  hearsCanvas: boolean;
  /**
   * It decides itself when the discussion ends (no rounds × stages plan): it is named in the hybrid settings line
   * and the Start estimate leaves it to the line above.
   */
  endsItself: boolean;
  /** Its own stages in words, said where rounds would be ('Round 2/10' is not shown); null where it has rounds. */
  stages: string | null;
  /** The `format` the first frame carries (undefined: none, today's discussion). Roles not taking part fall back. */
  send: (f: PanelFormat, agentIds: readonly string[]) => DiscussionFormat | undefined;
}

export const messages = (k: number) => `${k} message${k === 1 ? '' : 's'}`;
