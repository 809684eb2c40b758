import { silentWav } from '../../support/wav';

/** A tiny mono 16-bit PCM WAV (silence), optionally with the placeholder sizes a streaming writer leaves. */
export const makeWav = (samples = 800, placeholderSizes = false): Buffer =>
  silentWav(samples, { rate: 22_050, placeholderSizes });

/** Parses multipart/form-data the way a real server would (undici's own parser). */
export async function parseForm(body: Buffer, contentType: string | undefined): Promise<FormData> {
  return new Response(new Uint8Array(body), { headers: { 'content-type': contentType ?? '' } }).formData();
}
