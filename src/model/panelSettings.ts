// The standard panel's settings: what a saved copy makes of them, and the edits that change more than one field at
// once. Pure.
import { COMMUNICATION_PRESETS, type RESPONSE_LENGTHS } from '../schemas/constants';
import { standardPanelSettings, type StandardPanelSettings } from '../schemas/settings';

type ResponseLength = (typeof RESPONSE_LENGTHS)[number];

/** Choosing a preset takes its token range and temperature; 'custom' keeps the free numbers as they are. */
export function withResponseLength(s: StandardPanelSettings, length: ResponseLength): StandardPanelSettings {
  if (length === 'custom') return { ...s, communication: { ...s.communication, responseLength: length } };
  const preset = COMMUNICATION_PRESETS[length];
  return {
    ...s,
    communication: {
      ...s.communication,
      responseLength: length,
      minTokens: preset.min_tokens,
      maxTokens: preset.max_tokens,
      temperature: preset.temperature,
    },
  };
}

/** Toggles one member of a list setting (stages, sources), keeping the vocabulary's order. */
export function toggled<T extends string>(list: readonly T[], item: T, order: readonly T[]): T[] {
  const next = list.includes(item) ? list.filter((x) => x !== item) : [...list, item];
  return order.filter((x) => next.includes(x));
}

/** The user's saved settings, filled out with defaults; a copy that no longer fits the bounds is ignored. */
export function withSaved(current: StandardPanelSettings, saved: unknown): StandardPanelSettings {
  const parsed = standardPanelSettings.safeParse(saved ?? {});
  return parsed.success ? parsed.data : current;
}
