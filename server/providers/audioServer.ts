import { origin } from './errors';
import { bearerHeaders, openaiApiBase } from './openaiUrl';
import { cachedProbe, probeAnyAnswer } from './probe';

// What the server's own OpenAI-compatible audio servers (TTS_BASE_URL, TRANSCRIBE_BASE_URL) share: where their
// calls go, the key sent with each, how long a call may take, and how /health learns they are there.

export interface AudioServerOptions {
  baseUrl: string;
  apiKey?: string | null;
  timeoutMs?: number;
  probeCacheMs?: number;
}

export function audioServer(opts: AudioServerOptions, who: { provider: string; service: string; what: string }) {
  const api = openaiApiBase(opts.baseUrl);
  const headers = bearerHeaders(opts.apiKey ?? undefined);
  return {
    api,
    headers,
    timeoutMs: opts.timeoutMs ?? 120_000,
    // Speech and whisper servers seldom share a health path or list models; any HTTP answer proves one is there.
    probe: cachedProbe(opts.probeCacheMs ?? 5_000, () =>
      probeAnyAnswer({
        url: `${api}/models`,
        headers,
        provider: who.provider,
        service: who.service,
        okDetail: `${who.what} at ${origin(api)}`,
      }),
    ),
  };
}
