import { AUDIO_MESSAGES } from '../../../src/schemas/messages';
import { ProviderError } from '../errors';
import type { TranscriptionProvider } from '../types';

/** No transcription engine: every call fails with the message the UI shows. */
export function createNoTranscription(): TranscriptionProvider {
  return {
    id: 'none',
    available: () => false,
    transcribe: async () => {
      throw new ProviderError(AUDIO_MESSAGES.noTranscriptionEngine, 'none', 'unconfigured');
    },
    probe: async () => ({ status: 'disabled', provider: 'none', detail: AUDIO_MESSAGES.noTranscriptionEngine }),
  };
}
