// One colour, label and glyph per runtime status (docs/product.md#workspace-states); responding and speaking share one
// look. The glyph is an SVG image in the status colour (a data: URL, one per status, decoded once and shared by every
// node): no symbol or emoji font, and no inline <svg> per node, whose clip would be one more paint chunk per node to
// layerize on every pan frame.
import type { CanvasStatus } from '../../model/agentDisplay';

export interface StatusLook {
  color: string;
  label: string;
  /** `url("data:image/svg+xml,…")` of the glyph drawn in `color`, for a CSS background. */
  glyph: string;
}

const GLYPHS = {
  idle: "<circle cx='12' cy='12' r='6'/>",
  thinking:
    "<g fill='C'><circle cx='5' cy='12' r='2'/><circle cx='12' cy='12' r='2'/><circle cx='19' cy='12' r='2'/></g>",
  speaking: "<path d='M4 10v4M8 7v10M12 4v16M16 7v10M20 10v4'/>",
  active: "<path d='M13 2 4 14h7l-1 8 9-12h-7Z' fill='C'/>",
  listening:
    "<circle cx='12' cy='12' r='2' fill='C'/><path d='M7.5 7.5a6.4 6.4 0 0 0 0 9M16.5 7.5a6.4 6.4 0 0 1 0 9'/>",
  processing: "<path d='M20 12a8 8 0 1 1-2.3-5.7'/><path d='M20 4v5h-5'/>",
};

/** An SVG (24×24 view box, round 2.4 px strokes) as a CSS url() value, every 'C' in it meaning `color`. */
export function svgUrl(body: string, color: string): string {
  const svg = `<svg xmlns='http://www.w3.org/2000/svg' viewBox='0 0 24 24' fill='none' stroke='C' stroke-width='2.4' stroke-linecap='round' stroke-linejoin='round'>${body}</svg>`;
  return `url("data:image/svg+xml,${encodeURIComponent(svg.replaceAll("'C'", `'${color}'`))}")`;
}

const look = (color: string, label: string, glyph: keyof typeof GLYPHS): StatusLook => ({
  color,
  label,
  glyph: svgUrl(GLYPHS[glyph], color),
});

// Colours at least 4.5:1 on white, so the status word is readable as text too.
const speaking = look('#15803d', 'Speaking', 'speaking');

export const STATUS_LOOKS: Record<CanvasStatus, StatusLook> = {
  idle: look('#64748b', 'Idle', 'idle'),
  thinking: look('#b45309', 'Thinking', 'thinking'),
  responding: speaking,
  speaking,
  active: look('#2563eb', 'Active', 'active'),
  listening: look('#7c3aed', 'Listening', 'listening'),
  processing: look('#c2410c', 'Processing', 'processing'),
};
