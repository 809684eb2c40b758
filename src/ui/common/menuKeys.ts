// A menu's keys (WAI-ARIA menu button pattern): on the button, ArrowDown/Enter/Space open the menu at its first
// item and ArrowUp at its last; in the menu, the arrow keys move along the items (wrapping), Home and End go to
// the ends, Esc closes it with the focus back on the button, Tab closes it. Enter and Space activate an item
// (they are buttons). View-only: it moves the focus and calls `close`.
import type { KeyboardEvent } from 'react';

const ITEMS = '[role="menuitem"]:not(:disabled), [role="menuitemcheckbox"]:not(:disabled)';

const itemsOf = (menu: Element) => [...menu.querySelectorAll<HTMLElement>(ITEMS)];

/** Focus the menu's first item ('first') or last ('last'). */
export function focusMenuItem(menu: Element | null, which: 'first' | 'last') {
  if (!menu) return;
  const items = itemsOf(menu);
  (which === 'first' ? items[0] : items.at(-1))?.focus();
}

/** Keys on the menu itself (put on the element with role="menu"). */
export function onMenuKey(e: KeyboardEvent<HTMLElement>, close: (refocusButton: boolean) => void) {
  const items = itemsOf(e.currentTarget);
  const at = items.indexOf(document.activeElement as HTMLElement);
  let next: number;
  switch (e.key) {
    case 'ArrowDown':
      next = (at + 1) % items.length;
      break;
    case 'ArrowUp':
      next = at <= 0 ? items.length - 1 : at - 1;
      break;
    case 'Home':
      next = 0;
      break;
    case 'End':
      next = items.length - 1;
      break;
    case 'Escape':
      e.preventDefault();
      e.stopPropagation();
      close(true);
      return;
    case 'Tab':
      close(false);
      return;
    default:
      return;
  }
  e.preventDefault();
  items[next]?.focus();
}

/** Keys on the menu button: which end of the menu to open at, or null when the key does not open it. */
export function menuButtonOpens(e: KeyboardEvent<HTMLElement>): 'first' | 'last' | null {
  if (e.key === 'ArrowDown') return 'first';
  if (e.key === 'ArrowUp') return 'last';
  return null;
}
