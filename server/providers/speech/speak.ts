import { defaultVoice } from '../../audio/audioStore';
import type { Queryable } from '../../db/db';
import { ENGINE_MESSAGES } from '../../../src/schemas/messages';
import { ProviderError } from '../errors';
import type { SpeechProvider } from '../types';
import { writeTtsAudio } from './media';

// One spoken clip for an agent (or no agent): picks the agent's default reference voice when the
// agent belongs to the user, synthesizes, stores under /media/tts/. Used by /api/tts/speak and the
// discussion engine alike.

export interface SpeakDeps {
  db: Queryable;
  mediaDir: string;
  speech: SpeechProvider;
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
  /** Whether the agent's own reference voice was sent to the engine. */
  cloned: boolean;
  durationMs: number;
}

export async function speakAsAgent(deps: SpeakDeps, req: SpeakRequest): Promise<SpokenClip> {
  if (!deps.speech.available()) throw new ProviderError(ENGINE_MESSAGES.noSpeechEngine, deps.speech.id, 'unconfigured');
  const started = Date.now();
  // defaultVoice only finds rows of this user, so another user's agent simply has no voice here.
  const voice = req.agentId ? await defaultVoice(deps.db, deps.mediaDir, req.userId, req.agentId) : null;
  const out = await deps.speech.synthesize({ text: req.text, voice, speed: req.speed, format: req.format ?? 'wav', signal: req.signal });
  const stored = await writeTtsAudio(deps.mediaDir, out.audio, out.extension);
  return { audio_url: stored.url, filename: stored.filename, mimeType: out.mimeType, bytes: out.audio.length, cloned: !!voice, durationMs: Date.now() - started };
}
