// A turn's spoken clip, for replaying it by hand (the audio queue plays clips as they come).
export function TurnAudio({ url, speaker }: { url: string; speaker: string | null }) {
  return <audio className="message-card__audio" controls preload="none" src={url} aria-label={`Audio of ${speaker ?? 'the message'}`} />;
}
