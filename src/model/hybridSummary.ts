// The one line the hybrid panel shows for its settings while a discussion runs (they are locked then), so the
// feed keeps the panel's height. Pure.
import type { HybridSettings } from '../schemas/settings';
import { formatOption } from './formats';

const MODE_WORDS: Record<HybridSettings['mode'], string> = {
  natural: 'Natural language',
  structured: 'Structured',
  hybrid: 'Mixed language',
  adaptive: 'Adaptive',
};

const plural = (n: number, one: string) => `${n} ${one}${n === 1 ? '' : 's'}`;

/** How the format's turns go: rounds where it has them, its own stages where it does not. */
function turnWords(s: HybridSettings): string[] {
  const { stages } = formatOption(s.format.kind);
  return stages ? [stages] : [plural(s.max_rounds, 'round'), `${plural(s.turns_per_round, 'turn')} each`];
}

/**
 * '10 rounds · 1 turn each · Mixed language · research on · speech off'; a format other than round table first, in
 * its own words ('Debate · opening, rebuttal, closing · …': a council or a debate has no rounds).
 */
export function hybridSettingsSummary(s: HybridSettings): string {
  return [
    ...(formatOption(s.format.kind).endsItself ? [formatOption(s.format.kind).label] : []),
    ...turnWords(s),
    MODE_WORDS[s.mode],
    `research ${s.allow_research ? 'on' : 'off'}`,
    `speech ${s.tts ? 'on' : 'off'}`,
  ].join(' · ');
}
