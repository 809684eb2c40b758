// The one line the hybrid panel shows for its settings while a discussion runs (they are locked then), so the
// feed keeps the panel's height. Pure.
import type { HybridSettings } from '../schemas/settings';
import { formatLabel } from './discussionFormat';

const MODE_WORDS: Record<HybridSettings['mode'], string> = {
  natural: 'Natural language',
  structured: 'Structured',
  hybrid: 'Mixed language',
  adaptive: 'Adaptive',
};

const plural = (n: number, one: string) => `${n} ${one}${n === 1 ? '' : 's'}`;

/** '10 rounds · 1 turn each · Mixed language · research on · speech off' (a format other than round table first). */
export function hybridSettingsSummary(s: HybridSettings): string {
  return [
    ...(s.format.kind === 'round_table' ? [] : [formatLabel(s.format.kind)]),
    plural(s.max_rounds, 'round'),
    `${plural(s.turns_per_round, 'turn')} each`,
    MODE_WORDS[s.mode],
    `research ${s.allow_research ? 'on' : 'off'}`,
    `speech ${s.tts ? 'on' : 'off'}`,
  ].join(' · ');
}
