import type { AppContext } from '../context';
import { createEspeakProvider, findEspeak } from '../providers/speech/espeak';
import type { SpeechProvider } from '../providers/types';

// Who speaks a turn whose own voice failed: espeak-ng, local and instant (README 'Voices'). The server's default
// speech is espeak-ng already when no TTS_BASE_URL is set; else one is made when espeak-ng is installed.

export function espeakFallback(ctx: AppContext): SpeechProvider | null {
  if (ctx.providers.speech.id === 'espeak') return ctx.providers.speech;
  if (ctx.voices.espeak === undefined) {
    const exe = findEspeak(ctx.config.espeakPath);
    ctx.voices.espeak = exe ? createEspeakProvider({ executable: exe }) : null;
  }
  return ctx.voices.espeak;
}
