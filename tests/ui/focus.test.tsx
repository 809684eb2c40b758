// @vitest-environment jsdom
// Focus and keyboard: a dialog takes the focus and gives it back to its opener; Esc closes a popover wherever the
// focus is; the main screen's first action takes a focus left on the body; a control that vanishes or is
// disabled (Stop) hands the focus to its region instead of the body.
import { act, cleanup, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useRef, useState } from 'react';
import { afterEach, expect, it } from 'vitest';
import { useDialogFocus, useFocusRescue } from '../../src/ui/common/focus';

afterEach(cleanup);
const frame = () => act(() => new Promise((r) => requestAnimationFrame(() => r(null))));

function Popover({ onClose }: { onClose: () => void }) {
  const ref = useRef<HTMLElement>(null);
  useDialogFocus(ref, onClose);
  return (
    <section ref={ref} role="dialog" aria-label="Advanced Settings">
      <label>
        Turns <input />
      </label>
      <button type="button" onClick={onClose}>
        Done
      </button>
    </section>
  );
}

function Screen() {
  const [open, setOpen] = useState(false);
  const [running, setRunning] = useState(true);
  useFocusRescue();
  return (
    <div className="shell">
      <button type="button" data-focus-home>
        + Add Agent
      </button>
      <aside className="discussion-panel">
        <button type="button" onClick={() => setOpen(true)}>
          Advanced Settings
        </button>
        {open && <Popover onClose={() => setOpen(false)} />}
        {!running && (
          <div className="run-done">
            <button type="button">New discussion</button>
          </div>
        )}
        <button type="button" disabled={!running} onClick={() => setRunning(false)}>
          Stop
        </button>
      </aside>
      <p>Outside</p>
    </div>
  );
}

it('moves focus into a popover, Esc closes it from anywhere, and focus returns to its opener', async () => {
  const user = userEvent.setup();
  render(<Screen />);
  await frame();
  // After sign-in: the first action, not the body.
  expect(document.activeElement?.textContent).toBe('+ Add Agent');
  await user.click(screen.getByRole('button', { name: 'Advanced Settings' }));
  expect(document.activeElement).toBe(screen.getByLabelText('Turns'));
  await user.keyboard('{Escape}');
  expect(screen.queryByRole('dialog')).toBeNull();
  await frame();
  expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Advanced Settings' }));
});

it('after Stop (the button disables itself) the focus goes to what the panel offers next, not the body', async () => {
  render(<Screen />);
  await frame(); // the landing on the first action is done
  const stop = screen.getByRole('button', { name: 'Stop' });
  act(() => stop.focus());
  // A browser drops the focus of a button that disables itself; jsdom keeps it, so drop it as a browser would.
  act(() => stop.blur());
  act(() => stop.click());
  expect(document.activeElement).toBe(document.body);
  // The watch looks four times a second.
  await act(() => new Promise((r) => setTimeout(r, 300)));
  expect(document.activeElement).toBe(screen.getByRole('button', { name: 'New discussion' }));
});
