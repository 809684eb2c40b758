// One colour and label per runtime status (part 1 §4); responding and speaking share one look. The icon is
// drawn as a CSS mask (canvas.css), so no symbol or emoji font is needed.
import type { CanvasStatus } from '../../model/agentDisplay';

export interface StatusLook {
  color: string;
  label: string;
}

// Colours at least 4.5:1 on white, so the status word is readable as text too.
const speaking: StatusLook = { color: '#15803d', label: 'Speaking' };

export const STATUS_LOOKS: Record<CanvasStatus, StatusLook> = {
  idle: { color: '#64748b', label: 'Idle' },
  thinking: { color: '#b45309', label: 'Thinking' },
  responding: speaking,
  speaking,
  active: { color: '#2563eb', label: 'Active' },
  listening: { color: '#7c3aed', label: 'Listening' },
  processing: { color: '#c2410c', label: 'Processing' },
};
