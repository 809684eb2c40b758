// Can this browser draw a short text (an emoji avatar)? Where no emoji font is installed the system draws an
// empty box ("tofu"), the same box for every missing glyph, so a text whose drawing matches the box for a code
// point no font has is not drawable. Measured once per text on a small canvas; plain ASCII is always drawable.
// Without a 2D canvas (tests, old browsers) everything counts as drawable.

/** A noncharacter: no font draws it, so the system's fallback box is what it gets. */
const TOFU = '\u{10FFFE}';
const SIZE = 24;
const cache = new Map<string, boolean>();
let context: CanvasRenderingContext2D | null | undefined;

function canvas(): CanvasRenderingContext2D | null {
  if (context !== undefined) return context;
  try {
    const el = typeof document === 'undefined' ? null : document.createElement('canvas');
    // jsdom has canvases without a 2D context (and logs that it lacks one): not a browser that draws.
    const usable = el && !/jsdom/i.test(typeof navigator === 'undefined' ? '' : navigator.userAgent);
    if (el) el.width = el.height = SIZE * 2;
    context = usable ? el.getContext('2d', { willReadFrequently: true }) : null;
  } catch {
    context = null;
  }
  return context;
}

function pixels(ctx: CanvasRenderingContext2D, text: string): string {
  ctx.clearRect(0, 0, SIZE * 2, SIZE * 2);
  ctx.fillText(text, 0, SIZE);
  const data = ctx.getImageData(0, 0, SIZE * 2, SIZE * 2).data;
  let sum = 0;
  let hash = 0;
  for (let i = 3; i < data.length; i += 4) {
    sum += data[i];
    hash = (hash * 31 + data[i] * (i + 1)) | 0;
  }
  return `${sum}:${hash}`;
}

/** True when the system draws `text` with real glyphs (not the missing-glyph box, and not nothing at all). */
export function canDrawText(text: string): boolean {
  // eslint-disable-next-line no-control-regex
  if (/^[\x00-\x7f]*$/.test(text)) return true;
  const hit = cache.get(text);
  if (hit !== undefined) return hit;
  const ctx = canvas();
  let ok = true;
  if (ctx) {
    ctx.font = `${SIZE}px sans-serif`;
    ctx.textBaseline = 'alphabetic';
    const drawn = pixels(ctx, text);
    const box = pixels(ctx, TOFU);
    const box2 = pixels(ctx, TOFU + TOFU);
    ok = !drawn.startsWith('0:') && drawn !== box && drawn !== box2;
  }
  cache.set(text, ok);
  return ok;
}
