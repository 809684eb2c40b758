// Keyboard focus, view-local (no flow is driven here, as ARCHITECTURE allows for a focus):
//   useDialogFocus — a dialog or popover takes the focus when it opens, Esc closes it wherever the focus is,
//                    and on close the focus goes back to what opened it (or home, when that is gone);
//   useFocusRescue — focus is never left on the page body: after sign-in it lands on the main screen's first
//                    action, and when the focused control disappears or is disabled (Stop, a closed drawer) it
//                    moves to the nearest sensible control;
//   focusHome      — the main screen's first action ('+ Add Agent'), marked data-focus-home.
import { useEffect, useRef, type RefObject } from 'react';

const FOCUSABLE =
  'button:not([disabled]), [href], input:not([disabled]):not([type="hidden"]), select:not([disabled]), textarea:not([disabled]), [tabindex]:not([tabindex="-1"])';

const isUsable = (el: Element | null): el is HTMLElement =>
  !!el &&
  el instanceof HTMLElement &&
  el.isConnected &&
  !(el as HTMLButtonElement).disabled &&
  !el.closest('[hidden], [aria-hidden="true"], [inert]');

/** The first usable control in `root` (a [data-autofocus] one first). */
export function firstFocusable(root: ParentNode): HTMLElement | null {
  const preferred = root.querySelector('[data-autofocus]');
  if (isUsable(preferred)) return preferred;
  for (const el of root.querySelectorAll(FOCUSABLE)) if (isUsable(el)) return el;
  return null;
}

/** Focus the main screen's first action; true when something took the focus. */
export function focusHome(): boolean {
  const home = document.querySelector('[data-focus-home]');
  if (isUsable(home)) {
    home.focus();
    return true;
  }
  return false;
}

const bodyHasFocus = () => !document.activeElement || document.activeElement === document.body;

/** A modal dialog is open: the page beneath leaves Esc and the focus to it. */
const modalOpen = () => document.querySelector('dialog.modal-dialog[open]') !== null;

/** After a dialog has gone: back to its opener, else home (unless something else already took the focus). */
export function returnFocus(opener: HTMLElement | null) {
  requestAnimationFrame(() => {
    if (!bodyHasFocus() && document.activeElement?.isConnected) return;
    if (isUsable(opener)) opener.focus();
    else focusHome();
  });
}

export function useDialogFocus(ref: RefObject<HTMLElement | null>, onEscape?: () => void) {
  const escape = useRef(onEscape);
  escape.current = onEscape;
  useEffect(() => {
    const opener =
      document.activeElement instanceof HTMLElement && document.activeElement !== document.body
        ? document.activeElement
        : null;
    const root = ref.current;
    if (root && !root.contains(document.activeElement)) (firstFocusable(root) ?? root).focus();
    const onKey = (e: KeyboardEvent) => {
      // The innermost dialog takes Esc: a nested confirmation handles its own and stops it.
      if (e.key === 'Escape' && escape.current && !e.defaultPrevented && !modalOpen()) {
        e.preventDefault();
        escape.current();
      }
    };
    document.addEventListener('keydown', onKey);
    return () => {
      document.removeEventListener('keydown', onKey);
      // After React has removed the dialog: back to the opener, else home.
      requestAnimationFrame(() => {
        if (!bodyHasFocus() && document.activeElement?.isConnected) return;
        if (isUsable(opener)) opener.focus();
        else focusHome();
      });
    };
  }, [ref]);
}

/**
 * Put on the main screen once. Lands the focus on the first action after sign-in, and rescues a focus that a
 * vanished or disabled control dropped on the body: to the first usable control of the region it was in
 * (the discussion panel, the canvas), else home.
 */
export function useFocusRescue() {
  useEffect(() => {
    let frame = requestAnimationFrame(function landing() {
      if (!bodyHasFocus()) return;
      if (!focusHome()) frame = requestAnimationFrame(landing);
    });
    // The last control that had the focus, and the region it sat in. Browsers differ on whether removing or
    // disabling a focused control fires focusout, so the DOM's own change records say when to look (no timer).
    let last: HTMLElement | null = null;
    let region: Element | null = null;
    const onFocusIn = (e: FocusEvent) => {
      if (!(e.target instanceof HTMLElement)) return;
      last = e.target;
      region = e.target.closest('dialog[open], .discussion-panel, .agora-canvas');
    };
    const rescue = () => {
      if (!last || !bodyHasFocus() || isUsable(last)) return;
      // Under a modal dialog only the dialog may take the focus.
      const modals = document.querySelectorAll('dialog.modal-dialog[open]');
      if (modals.length && !(region instanceof HTMLDialogElement && region.isConnected))
        region = modals[modals.length - 1];
      const within = region?.isConnected ? firstFocusable(region.querySelector('.run-done') ?? region) : null;
      last = null;
      if (within) within.focus();
      else focusHome();
    };
    // A frame later, so a dialog closing hands the focus back to its opener first (useFocusReturn).
    let pending = 0;
    const later = () => {
      cancelAnimationFrame(pending);
      pending = requestAnimationFrame(rescue);
    };
    const watch = new MutationObserver(later);
    watch.observe(document.body, {
      subtree: true,
      childList: true,
      attributes: true,
      attributeFilter: ['disabled', 'hidden', 'aria-hidden', 'inert'],
    });
    document.addEventListener('focusin', onFocusIn);
    document.addEventListener('focusout', later);
    return () => {
      cancelAnimationFrame(frame);
      cancelAnimationFrame(pending);
      watch.disconnect();
      document.removeEventListener('focusin', onFocusIn);
      document.removeEventListener('focusout', later);
    };
  }, []);
}

/** For a dialog that stays mounted and is shown by a flag: while shown, remember the opener; when hidden, return to it. */
export function useFocusReturn(shown: boolean) {
  useEffect(() => {
    if (!shown) return;
    const opener =
      document.activeElement instanceof HTMLElement && document.activeElement !== document.body
        ? document.activeElement
        : null;
    return () => {
      requestAnimationFrame(() => {
        if (!bodyHasFocus() && document.activeElement?.isConnected) return;
        if (isUsable(opener)) opener.focus();
        else focusHome();
      });
    };
  }, [shown]);
}
