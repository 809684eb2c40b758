import type { Queryable } from '../../db/db';
import { ENGINE_MESSAGES } from '../../../src/schemas/messages';
import { isAbortError, ProviderError } from '../errors';
import type { SpeechProvider } from '../types';
import { writeTtsAudio } from './media';

// One spoken clip for an agent (or no agent): the agent's own voice when it has one (README 'Voices'; a stock voice or
// a clone of its reference recording), else the server's default speech; stored under /media/tts/. Used by
// /api/tts/speak and the discussion engine alike.

export interface SpeakDeps {
  db: Queryable;
  mediaDir: string;
  speech: SpeechProvider;
  /** The agent's own voice (README 'Voices'), when it has one. */
  voiceOf?: (userId: string, agentId: string) => Promise<AgentSpeech | null>;
  /** Who speaks a turn whose voice failed (espeak-ng), or null when nothing can. */
  fallback?: SpeechProvider | null;
}

export interface AgentSpeech {
  label: string;
  /** The voice is a clone of the agent's reference recording (not a stock voice). */
  cloned: boolean;
  synthesize(
    text: string,
    opts: { speed?: number; signal?: AbortSignal },
  ): Promise<{ audio: Buffer; mimeType: string; extension: string }>;
}

export interface SpeakRequest {
  userId: string;
  agentId?: string | null;
  text: string;
  speed?: number;
  format?: string;
  signal?: AbortSignal;
}

export interface SpokenClip {
  audio_url: string;
  filename: string;
  mimeType: string;
  bytes: number;
  /** Whether the clip was spoken in a voice cloned from the agent's reference recording. */
  cloned: boolean;
  durationMs: number;
  /** The agent's voice failed and espeak-ng spoke this turn instead: why, in the user's words. */
  voiceError?: string;
}

export async function speakAsAgent(deps: SpeakDeps, req: SpeakRequest): Promise<SpokenClip> {
  const started = Date.now();
  const own = req.agentId && deps.voiceOf ? await deps.voiceOf(req.userId, req.agentId) : null;
  let out: { audio: Buffer; mimeType: string; extension: string };
  let voiceError: string | undefined;
  if (own) {
    try {
      out = await own.synthesize(req.text, { speed: req.speed, signal: req.signal });
    } catch (e) {
      if (isAbortError(e) || req.signal?.aborted) throw e;
      const fallback = deps.fallback ?? (deps.speech.available() ? deps.speech : null);
      if (!fallback) throw e;
      voiceError = ENGINE_MESSAGES.voiceFellBack(own.label, (e as Error).message);
      out = await fallback.synthesize({ text: req.text, speed: req.speed, format: 'wav', signal: req.signal });
    }
  } else {
    if (!deps.speech.available())
      throw new ProviderError(ENGINE_MESSAGES.noSpeechEngine, deps.speech.id, 'unconfigured');
    out = await deps.speech.synthesize({
      text: req.text,
      speed: req.speed,
      format: req.format ?? 'wav',
      signal: req.signal,
    });
  }
  const stored = await writeTtsAudio(deps.mediaDir, out.audio, out.extension);
  // Counted against the user's stored-speech quota; the count never stands in the way of the clip itself.
  await deps.db
    .query(
      'INSERT INTO tts_clips (file_name, user_id, size_bytes) VALUES ($1, $2, $3) ON CONFLICT (file_name) DO NOTHING',
      [stored.filename, req.userId, out.audio.length],
    )
    .catch(() => {});
  return {
    audio_url: stored.url,
    filename: stored.filename,
    mimeType: out.mimeType,
    bytes: out.audio.length,
    cloned: !!own?.cloned && !voiceError,
    durationMs: Date.now() - started,
    ...(voiceError ? { voiceError } : {}),
  };
}

/** Bytes of generated speech the user has stored within the retention window (every clip when retention is 0). */
export async function ttsBytesOf(db: Queryable, userId: string, retentionHours: number): Promise<number> {
  const rows = await db.query<{ n: string | null }>(
    `SELECT sum(size_bytes) AS n FROM tts_clips WHERE user_id = $1 AND ($2::float8 <= 0 OR created_at > now() - make_interval(secs => $2::float8 * 3600))`,
    [userId, retentionHours],
  );
  return Number(rows[0]?.n ?? 0);
}
