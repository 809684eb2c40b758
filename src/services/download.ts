// Saves a file the browser way: a temporary object URL on a clicked anchor.
export function downloadBlob(blob: Blob, fileName: string) {
  const url = URL.createObjectURL(blob);
  const a = document.createElement('a');
  a.href = url;
  a.download = fileName;
  a.rel = 'noopener';
  document.body.appendChild(a);
  a.click();
  a.remove();
  // Revoked after the click has been handled, or the download can be cancelled in some browsers.
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}
