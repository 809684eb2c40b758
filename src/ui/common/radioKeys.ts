// A radio group is one tab stop: the checked radio (else the first) is tabbable, and the arrow keys move the
// choice along the group (WAI-ARIA radio group pattern). View-only: it moves the focus and calls `select`.
import type { KeyboardEvent } from 'react';

const STEP: Record<string, number> = { ArrowRight: 1, ArrowDown: 1, ArrowLeft: -1, ArrowUp: -1 };

/** tabIndex for option `i` of a group whose checked option is `checked` (-1 when none is). */
export const radioTabIndex = (i: number, checked: number) => (i === (checked < 0 ? 0 : checked) ? 0 : -1);

/** Arrow keys, Home and End on a radio of the group: focus and select the next one (wrapping). */
export function onRadioKey<T>(e: KeyboardEvent<HTMLElement>, values: readonly T[], select: (v: T) => void) {
  const group = e.currentTarget.closest('[role="radiogroup"]');
  if (!group) return;
  const radios = [...group.querySelectorAll<HTMLElement>('[role="radio"]')];
  const at = radios.indexOf(e.currentTarget);
  let next: number;
  if (e.key in STEP) next = (at + STEP[e.key] + radios.length) % radios.length;
  else if (e.key === 'Home') next = 0;
  else if (e.key === 'End') next = radios.length - 1;
  else return;
  e.preventDefault();
  radios[next]?.focus();
  if (next < values.length) select(values[next]);
}
