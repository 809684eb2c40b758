// What the audio queue (src/machines/audioQueue.machine.ts) and its browser actors (src/services/audioPlayer.ts)
// say to each other, written once so neither side can drift from the other.

export interface CheckAudioInput {
  url: string;
}
export type CheckAudioResult = { ok: true } | { ok: false; reason: string };

export interface PlayClipInput {
  url: string;
  /** Playback rate, already clamped to 0.5–2. */
  speed: number;
  /** Volume, already clamped to 0–1. */
  volume: number;
}

/** What the playClip actor tells the queue. */
export type ClipEvent =
  | { type: 'clip.loaded' }
  | { type: 'clip.playing' }
  | { type: 'clip.ended' }
  | { type: 'clip.failed'; reason?: string }
  | { type: 'clip.blocked' }
  /** Where the playing clip is (seconds); duration 0 while the element does not know it yet. */
  | { type: 'clip.progress'; position: number; duration: number };

/** What the queue tells the playClip actor. 'clip.resume' also retries a blocked play(). */
export type ClipCommand =
  | { type: 'clip.stop' }
  | { type: 'clip.pause' }
  | { type: 'clip.resume' }
  | { type: 'clip.settings'; speed?: number; volume?: number };

/** What the queue tells the preloadClips actor: the URLs that will play next, soonest first. */
export type PreloadCommand = { type: 'audio.preload'; urls: string[] };
