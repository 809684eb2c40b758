// One reference voice: name, default badge, player, transcript preview (or 'Not transcribed'), actions.
import { memo } from 'react';
import type { AudioItem } from '../../schemas/audio';
import { isUntranscribed, transcriptPreview } from '../../machines/referenceAudio.selectors';

interface Props {
  item: AudioItem;
  busy: boolean;
  working: boolean;
  onSetDefault: (id: string) => void;
  onDelete: (id: string) => void;
  onTranscribe: (id: string) => void;
}

export const AudioItemRow = memo(function AudioItemRow({
  item,
  busy,
  working,
  onSetDefault,
  onDelete,
  onTranscribe,
}: Props) {
  const untranscribed = isUntranscribed(item);
  return (
    <li
      className={`agora-audio-item${item.is_default ? ' is-default' : ''}`}
      aria-label={`Reference audio ${item.name}`}
    >
      <div className="agora-audio-head">
        <strong>{item.name}</strong>
        {item.is_default && <span className="agora-badge default">Default</span>}
        {untranscribed && <span className="agora-badge muted">Not transcribed</span>}
        {working && <span className="agora-badge busy">Working…</span>}
      </div>
      <audio controls preload="none" src={item.audio_url} aria-label={`Play ${item.name}`} />
      {!untranscribed && (
        <p className="agora-audio-transcript" title={item.transcript ?? ''}>
          “{transcriptPreview(item.transcript ?? '')}”
        </p>
      )}
      <div className="agora-audio-actions">
        <button
          type="button"
          className="button button--small"
          onClick={() => onSetDefault(item.id)}
          disabled={busy || item.is_default}
          aria-label={`Set ${item.name} as default`}
        >
          {item.is_default ? 'Default' : 'Set default'}
        </button>
        {untranscribed && (
          <button
            type="button"
            className="button button--small"
            onClick={() => onTranscribe(item.id)}
            disabled={busy}
            aria-label={`Transcribe ${item.name}`}
          >
            Transcribe
          </button>
        )}
        <button
          type="button"
          className="button button--small button--danger"
          onClick={() => onDelete(item.id)}
          disabled={busy}
          aria-label={`Delete ${item.name}`}
        >
          Delete
        </button>
      </div>
    </li>
  );
});
