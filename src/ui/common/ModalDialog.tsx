// One modal dialog for the app (Models, History, confirmations): a native <dialog> opened with showModal(), so
// the page beneath is inert (Tab never walks it), Esc closes the top dialog wherever the focus is, and closing
// hands the focus back to what opened it. The dialog itself is unstyled and fills the viewport; each caller
// keeps its own backdrop and box inside it. Where showModal is missing (jsdom), the same rules are kept by hand.
import { useLayoutEffect, useRef, type ReactNode } from 'react';
import { firstFocusable, returnFocus } from './focus';

interface Props {
  onClose: () => void;
  children: ReactNode;
  role?: 'dialog' | 'alertdialog';
  label?: string;
  labelledBy?: string;
  className?: string;
}

/** Open dialogs, innermost last: only the top one answers Esc when the browser cannot do it. */
const stack: HTMLDialogElement[] = [];

/** The topmost open modal dialog, if any (the focus rescue keeps the focus inside it). */
export const topModal = (): HTMLDialogElement | null => stack[stack.length - 1] ?? null;

/** What opened the dialog: the focused control, or for an item of a menu (which closes) the menu's button. */
function openerOf(active: Element | null): HTMLElement | null {
  if (!(active instanceof HTMLElement) || active === document.body) return null;
  if (!active.closest('[role="menu"]')) return active;
  const trigger = document.querySelector('[aria-haspopup="menu"][aria-expanded="true"]');
  return trigger instanceof HTMLElement ? trigger : active;
}

export function ModalDialog({ onClose, children, role = 'dialog', label, labelledBy, className }: Props) {
  const ref = useRef<HTMLDialogElement>(null);
  const close = useRef(onClose);
  close.current = onClose;
  useLayoutEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    const opener = openerOf(document.activeElement);
    const native = typeof dialog.showModal === 'function';
    if (native) {
      if (!dialog.open) dialog.showModal();
    } else dialog.setAttribute('open', '');
    stack.push(dialog);
    (firstFocusable(dialog) ?? dialog).focus();
    const onKey = (e: KeyboardEvent) => {
      if (e.key !== 'Escape' || topModal() !== dialog || e.defaultPrevented) return;
      e.preventDefault();
      close.current();
    };
    // The browser closes a modal on Esc by itself (its 'cancel' event is prevented below); by hand otherwise.
    if (!native) document.addEventListener('keydown', onKey);
    const onCancel = (e: Event) => {
      if (e.target !== dialog) return;
      e.preventDefault();
      close.current();
    };
    // A browser may close a modal without a cancelable 'cancel' (Esc twice with no click between): ask to close,
    // and if the owner keeps it, show it again.
    const onNativeClose = () => {
      if (!stack.includes(dialog)) return;
      close.current();
      queueMicrotask(() => {
        if (stack.includes(dialog) && dialog.isConnected && !dialog.open) dialog.showModal();
      });
    };
    dialog.addEventListener('cancel', onCancel);
    dialog.addEventListener('close', onNativeClose);
    return () => {
      stack.splice(stack.indexOf(dialog), 1);
      dialog.removeEventListener('cancel', onCancel);
      dialog.removeEventListener('close', onNativeClose);
      document.removeEventListener('keydown', onKey);
      if (native && dialog.open) dialog.close();
      returnFocus(opener);
    };
  }, []);
  return (
    <dialog
      ref={ref}
      className={`modal-dialog${className ? ` ${className}` : ''}`}
      role={role === 'dialog' ? undefined : role}
      aria-label={label}
      aria-labelledby={labelledBy}
    >
      {children}
    </dialog>
  );
}
