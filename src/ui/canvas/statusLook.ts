// One icon and colour per runtime status (part 1 §4); responding and speaking share one look.
import type { CanvasStatus } from '../../machines/canvas.selectors';

export interface StatusLook {
  icon: string;
  color: string;
  label: string;
}

// Plain symbols that common system fonts carry (emoji fonts are often missing on Linux desktops).
const speaking: StatusLook = { icon: '»', color: '#16a34a', label: 'Speaking' };

export const STATUS_LOOKS: Record<CanvasStatus, StatusLook> = {
  idle: { icon: '○', color: '#64748b', label: 'Idle' },
  thinking: { icon: '…', color: '#d97706', label: 'Thinking' },
  responding: speaking,
  speaking,
  active: { icon: '★', color: '#2563eb', label: 'Active' },
  listening: { icon: '◎', color: '#7c3aed', label: 'Listening' },
  processing: { icon: '↻', color: '#ea580c', label: 'Processing' },
};
