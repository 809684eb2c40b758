// The 'Format' setting in plain words and the `format` object the first frame carries (docs/protocol.md#formats),
// read from the one record per format in ./formats. Round table is today's discussion and sends no format. Pure.
import type { DiscussionFormat, FormatKind } from '../schemas/format';
import type { PanelFormat } from '../schemas/settings';
import { formatOption } from './formats';

export type { FormatCounts, FormatOption } from './formats';
export { debateSplit, FORMAT_OPTIONS, formatOption } from './formats';

/** The Start button's words for a format: 'Start round table', 'Start council'… */
export const startLabel = (kind: FormatKind | undefined) => formatOption(kind).start;

/** The `format` to send, or undefined for the round table. Roles naming an agent not taking part fall back. */
export function formatOf(f: PanelFormat | undefined, agentIds: readonly string[]): DiscussionFormat | undefined {
  return f ? formatOption(f.kind).send(f, agentIds) : undefined;
}

/** A stored discussion's format, in the setting's words (History); no format is the round table. */
export const formatLabel = (kind: string | null | undefined) => formatOption(kind).label;
