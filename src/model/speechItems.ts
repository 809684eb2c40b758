// Which server frames a panel speaks, and how: the standard panel's `audio` frames (or a message with its audio_url),
// the hybrid panel's `audio_message` frames at the run's speed and volume. Pure; the panels' variants use them.
import type { HybridServerFrame } from '../schemas/hybridSocket';
import type { HybridSettings } from '../schemas/settings';
import type { StandardServerFrame } from '../schemas/standardSocket';

/** The standard panel speaks an `audio` frame, or a message that carries its audio_url. */
export function standardAudioItem(frame: StandardServerFrame | null) {
  if (frame?.type === 'audio') {
    return {
      audioId: frame.audio_id ?? frame.audio_url,
      messageId: frame.message_id ?? null,
      url: frame.audio_url,
      agentId: frame.agent_id,
      text: frame.text,
      requiresAck: true,
    };
  }
  if (frame?.type === 'agent_message' && frame.audio_url) {
    return {
      audioId: frame.audio_id ?? frame.audio_url,
      messageId: frame.id,
      url: frame.audio_url,
      agentId: frame.agent_id,
      agentName: frame.agent_name,
      text: frame.content,
      requiresAck: true,
    };
  }
  return null;
}

/** The hybrid panel speaks `audio_message` frames at the run's speed and volume; the server waits for each one. */
export function hybridAudioItem(
  frame: HybridServerFrame | null,
  settings: Pick<HybridSettings, 'tts_speed' | 'tts_volume'>,
) {
  if (frame?.type !== 'audio_message') return null;
  return {
    audioId: frame.audio_id,
    messageId: frame.message_id ?? null,
    url: frame.audio_url,
    agentId: frame.agent_id,
    agentName: frame.agent_name,
    speed: settings.tts_speed,
    volume: settings.tts_volume,
    requiresAck: true,
    synchronized: true,
  };
}

/** What the audio queue plays of a frame, as either panel makes it. */
export type SpeechItem = NonNullable<ReturnType<typeof standardAudioItem> | ReturnType<typeof hybridAudioItem>>;
