// The Unicode font the PDF export embeds when text is not Latin-1 (docs/architecture.md#exports): DejaVu Sans, shipped
// by Vite as a separate asset (only its URL is in the bundle) and fetched the first time a PDF needs it.
import fontUrl from 'dejavu-fonts-ttf/ttf/DejaVuSans.ttf?url';

let cached: Promise<ArrayBuffer> | null = null;

export function loadUnicodeFont(): Promise<ArrayBuffer> {
  cached ??= fetch(fontUrl).then((r) => {
    if (!r.ok) throw new Error(`Could not load the PDF font (${r.status})`);
    return r.arrayBuffer();
  });
  cached.catch(() => (cached = null)); // a failed load may be retried
  return cached;
}
