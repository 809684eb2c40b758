// The canvas's dismissible banner: an error, or the auto-connect success (which the workspace hides after 3 s).
import { CloseIcon } from '../common/icons';
export interface BannerView {
  kind: 'error' | 'success';
  text: string;
}

export function CanvasBanner({ banner, onDismiss }: { banner: BannerView | null; onDismiss: () => void }) {
  if (!banner) return null;
  return (
    <div className={`agora-banner ${banner.kind}`} role={banner.kind === 'error' ? 'alert' : 'status'}>
      <span>{banner.text}</span>
      <button type="button" className="agora-icon-btn" onClick={onDismiss} aria-label="Dismiss message">
        <CloseIcon size={14} />
      </button>
    </div>
  );
}
