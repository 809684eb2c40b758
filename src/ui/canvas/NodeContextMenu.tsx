// The right-click menu of a node: Edit Agent, Delete Agent. Closes on Escape, on a click outside, or after a
// choice. Arrow keys move between the items; focus starts on the first.
import { useEffect, useRef } from 'react';
import { createPortal } from 'react-dom';
import { PencilIcon, TrashIcon } from '../common/icons';

const MENU_SIZE = { width: 190, height: 96 };

interface Props {
  agentName: string;
  x: number;
  y: number;
  onEdit: () => void;
  onDelete: () => void;
  onClose: () => void;
}

export function NodeContextMenu({ agentName, x, y, onEdit, onDelete, onClose }: Props) {
  const menuRef = useRef<HTMLDivElement>(null);
  // Focus management only: the menu is usable from the keyboard as soon as it opens.
  useEffect(() => {
    menuRef.current?.querySelector<HTMLElement>('[role="menuitem"]')?.focus();
  }, []);
  const move = (delta: number) => {
    const items = Array.from(menuRef.current?.querySelectorAll<HTMLElement>('[role="menuitem"]') ?? []);
    const i = items.indexOf(document.activeElement as HTMLElement);
    items[(i + delta + items.length) % items.length]?.focus();
  };

  // Drawn on the body, above every stacking context: a node near the canvas's right edge opens its menu over the
  // discussion panel, not under it.
  return createPortal(
    <>
      <div
        className="agora-menu-backdrop"
        data-testid="context-menu-backdrop"
        onClick={onClose}
        onContextMenu={(e) => {
          e.preventDefault();
          onClose();
        }}
      />
      <div
        ref={menuRef}
        className="agora-context-menu"
        role="menu"
        aria-label={`Actions for ${agentName}`}
        // Kept inside the window when opened near its right or bottom edge.
        style={{
          left: Math.min(x, window.innerWidth - MENU_SIZE.width),
          top: Math.min(y, window.innerHeight - MENU_SIZE.height),
        }}
        onKeyDown={(e) => {
          if (e.key === 'Escape') {
            e.preventDefault();
            onClose();
          } else if (e.key === 'ArrowDown') {
            e.preventDefault();
            move(1);
          } else if (e.key === 'ArrowUp') {
            e.preventDefault();
            move(-1);
          } else if (e.key === 'Tab') {
            onClose();
          }
        }}
      >
        <button type="button" role="menuitem" className="agora-menu-item" onClick={onEdit}>
          <PencilIcon size={15} />
          Edit Agent
        </button>
        <button type="button" role="menuitem" className="agora-menu-item agora-menu-item--danger" onClick={onDelete}>
          <TrashIcon size={15} />
          Delete Agent
        </button>
      </div>
    </>,
    document.body,
  );
}
