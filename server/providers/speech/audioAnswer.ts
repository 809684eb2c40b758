import { BodyTooLargeError, readCappedBytes } from '../boundedBody';
import { ProviderError, httpError } from '../errors';
import { MIME_BY_EXTENSION, extensionFor, fixWavSizes } from './audioTypes';

// The audio a speech server answers, for every kind that speaks (the server's TTS_BASE_URL and each speech
// connection): refused when it is not audio, and read only up to VOICE_AUDIO_MAX_BYTES, cut while it streams.

/** The largest speech answer read when none is configured (VOICE_AUDIO_MAX_BYTES): minutes of WAV. */
export const DEFAULT_VOICE_AUDIO_MAX_BYTES = 32 * 1024 * 1024;

export interface AudioAnswerOptions {
  provider: string;
  service: string;
  maxBytes: number;
  /** The extension asked for, when the answer's content type does not say. */
  requested: string;
}

export async function readAudioAnswer(res: Response, o: AudioAnswerOptions) {
  if (!res.ok) throw await httpError(res, o.provider, o.service);
  const contentType = res.headers.get('content-type');
  if (contentType && /json|text\//i.test(contentType)) {
    await res.body?.cancel().catch(() => {});
    throw new ProviderError(
      `${o.service} answered ${contentType.split(';')[0]} instead of audio`,
      o.provider,
      'malformed',
    );
  }
  let audio: Buffer;
  try {
    audio = await readCappedBytes(res, o.maxBytes);
  } catch (e) {
    if (e instanceof BodyTooLargeError)
      throw new ProviderError(
        `${o.service} answered more than ${Math.round(o.maxBytes / 1024)} KB of audio, this server's limit (VOICE_AUDIO_MAX_BYTES); the answer was cut`,
        o.provider,
        'malformed',
      );
    throw e;
  }
  if (!audio.length) throw new ProviderError(`${o.service} answered no audio`, o.provider, 'malformed');
  const extension = extensionFor(contentType, o.requested);
  return {
    audio: extension === 'wav' ? fixWavSizes(audio) : audio,
    mimeType: MIME_BY_EXTENSION[extension],
    extension,
  };
}
