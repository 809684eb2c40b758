import { NEW_OPTION_ID, OPTION_LABEL_MAX, OPTIONS_MAX } from '../../../src/schemas/constants';
import type { PositionOption } from '../../../src/schemas/positions';

// The short list of options a discussion weighs. A model names the option it holds by id, or proposes a new
// one in its own words; two proposals that are the same after normalisation are one option. Pure functions.

export interface OptionList {
  options: PositionOption[];
  /** The number the next new option takes (ids are never reused, so an old frame's id keeps its meaning). */
  seq: number;
}

export const emptyOptions = (): OptionList => ({ options: [], seq: 0 });

/** A position as shown: whitespace collapsed, quotes trimmed, at most OPTION_LABEL_MAX characters. */
export function optionLabel(text: string): string {
  const s = text
    .replace(/\s+/g, ' ')
    .trim()
    .replace(/^["'“”‘’]+|["'“”‘’]+$/g, '')
    .trim();
  return s.length <= OPTION_LABEL_MAX ? s : `${s.slice(0, OPTION_LABEL_MAX - 1).trimEnd()}…`;
}

/** What two positions must share to be one option: case, accents, punctuation and spacing do not count. */
export function optionKey(text: string): string {
  return text
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim();
}

/** The first sentence of what an agent said: its position when it named none. */
export function gistOf(content: string): string {
  const first =
    content
      .replace(/\s+/g, ' ')
      .trim()
      .split(/(?<=[.!?])\s/)[0] ?? '';
  return optionLabel(first);
}

export interface Choice {
  /** What the model named: an option id from the list, NEW_OPTION_ID, or nothing. */
  optionId?: string | null;
  /** The position in its words. */
  position?: string | null;
}

/**
 * The option a turn holds, and the list after it. An id on the list wins; otherwise the position's words are
 * matched to the list (normalised) or added; a turn that names neither keeps the agent's previous option, or, on
 * its first turn, takes its first sentence as its position. A full list makes room by dropping the oldest option
 * nobody holds (`held`); when every option is held the new one is matched to nothing and the agent keeps its own.
 */
export function chooseOption(
  list: OptionList,
  choice: Choice,
  previous: string | null,
  content: string,
  held: ReadonlySet<string>,
): { list: OptionList; optionId: string | null } {
  const named = choice.optionId?.trim();
  if (named && named !== NEW_OPTION_ID && list.options.some((o) => o.id === named)) return { list, optionId: named };
  const words = choice.position ? optionLabel(choice.position) : '';
  if (!words && previous) return { list, optionId: previous };
  const label = words || gistOf(content);
  const key = optionKey(label);
  if (!key) return { list, optionId: previous };
  const same = list.options.find((o) => optionKey(o.label) === key);
  if (same) return { list, optionId: same.id };
  let options = list.options;
  if (options.length >= OPTIONS_MAX) {
    const free = options.findIndex((o) => !held.has(o.id));
    if (free < 0) return { list, optionId: previous ?? options[0]?.id ?? null };
    options = options.filter((_, i) => i !== free);
  }
  const id = `o${list.seq + 1}`;
  return { list: { options: [...options, { id, label }], seq: list.seq + 1 }, optionId: id };
}
