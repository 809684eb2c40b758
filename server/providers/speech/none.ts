import { ENGINE_MESSAGES } from '../../../src/schemas/messages';
import { ProviderError } from '../errors';
import type { SpeechProvider } from '../types';

/** No speech engine: every call fails with the message the UI shows as tts_error. */
export function createNoSpeech(): SpeechProvider {
  return {
    id: 'none',
    available: () => false,
    synthesize: async () => {
      throw new ProviderError(ENGINE_MESSAGES.noSpeechEngine, 'none', 'unconfigured');
    },
    probe: async () => ({ status: 'disabled', provider: 'none', detail: ENGINE_MESSAGES.noSpeechEngine }),
  };
}
