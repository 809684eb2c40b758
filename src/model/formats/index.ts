import type { DiscussionFormat, FormatKind } from '../../schemas/format';
import { DEFAULT_FORMAT_KIND } from '../../schemas/constants';
import type { PanelFormat } from '../../schemas/settings';
import { council } from './council';
import { debate, debateJudge, debateSplit } from './debate';
import { moderated } from './moderated';
import { roundTable } from './roundTable';
import type { FormatAgent, FormatCounts, FormatOption } from './types';

// The formats as the panels show and send them, one record per kind (docs/protocol.md#formats): the Format field,
// the controls while one runs, the Start button and the settings line all read these. Pure.

export const FORMATS = {
  round_table: roundTable,
  moderated,
  council,
  debate,
} satisfies { [K in FormatKind]: FormatOption & { kind: K } };

/** The four formats, in the order the select offers them (and History filters by). */
export const FORMAT_OPTIONS: readonly FormatOption[] = Object.values(FORMATS);

const registered = new Map<string, FormatOption>(FORMAT_OPTIONS.map((o) => [o.kind, o]));

/** Adds a format (a test's fifth): the Format field offers it and every lookup finds it. */
export function registerFormatOption(option: FormatOption): void {
  registered.set(option.kind, option);
}

/** Every format the Format field offers. */
export const formatOptions = (): FormatOption[] => [...registered.values()];

export const formatOption = (kind: string | null | undefined): FormatOption =>
  registered.get(kind ?? DEFAULT_FORMAT_KIND) ?? FORMATS[DEFAULT_FORMAT_KIND];

/** The counts a format's line says, from the agents chosen and the turns setting. */
export function formatCounts(value: PanelFormat, agents: readonly FormatAgent[], turns: number): FormatCounts {
  const ids = agents.map((a) => a.id);
  const split = debateSplit(ids, debateJudge(value.judge, ids));
  return {
    agents: Math.max(2, agents.length),
    turns,
    debaters: Math.max(2, split.for.length + split.against.length),
  };
}

/** What the person does in a running format; null where it has no controls (it sends no format). */
export interface PersonSeat {
  /** The person gives the floor (a moderator that is the person). */
  givesFloor: boolean;
  /** The person votes as judge. */
  judges: boolean;
}

/** The person's seat, read from the `format` the run sent (or will send) for these agents. */
export function personSeat(f: PanelFormat, agentIds: readonly string[]): PersonSeat | null {
  const sent: DiscussionFormat | undefined = formatOption(f.kind).send(f, agentIds);
  if (!sent) return null;
  return { givesFloor: sent.moderator === 'human', judges: sent.judge === 'human' };
}

export { debateSplit };
export type { FormatAgent, FormatCounts, FormatOption, FormatRole } from './types';
