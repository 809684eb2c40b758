import type { AppContext } from '../context';
import { createEspeakProvider, findEspeak } from '../providers/speech/espeak';
import type { SpeechProvider } from '../providers/types';

// Who speaks a turn whose own voice failed: espeak-ng, local and instant (README 'Voices'). The server's default
// speech is espeak-ng already when no TTS_BASE_URL is set; else one is made when espeak-ng is installed.

const made = new WeakMap<AppContext, SpeechProvider | null>();

export function espeakFallback(ctx: AppContext): SpeechProvider | null {
  if (ctx.providers.speech.id === 'espeak') return ctx.providers.speech;
  if (!made.has(ctx)) {
    const exe = findEspeak(ctx.config.espeakPath);
    made.set(ctx, exe ? createEspeakProvider({ executable: exe }) : null);
  }
  return made.get(ctx) ?? null;
}
