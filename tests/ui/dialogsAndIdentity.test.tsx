// @vitest-environment jsdom
// One identity and keyboard-cheap dialogs: the editor opens on Name, its colour and avatar choices are one radio
// group each (one tab stop, arrow keys), a disabled Create says why, Esc closes it wherever the focus is; a modal
// dialog (ModalDialog) answers Esc only when it is the top one and gives the focus back to its opener; an emoji
// the system cannot draw falls back to initials; the automatic colour previewed is the one stored.
import { act, cleanup, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { afterEach, describe, expect, it } from 'vitest';
import { EditorDrawer } from '../../src/ui/editor/EditorDrawer';
import { ModalDialog } from '../../src/ui/common/ModalDialog';
import { agentAvatar, agentColor } from '../../src/model/agentIdentity';
import { createRequest, emptyFields } from '../../src/model/editorFields';
import { deleteQuestion, modelsOf } from '../../src/model/historyRow';
import { modelName } from '../../src/model/modelName';
import { agentFixture, startEditor } from '../machines/editorHarness';
import { CANVAS_MESSAGES } from '../../src/schemas/messages';

afterEach(cleanup);
const flush = () => act(() => new Promise((r) => setTimeout(r, 0)));
const frame = () => act(() => new Promise((r) => requestAnimationFrame(() => r(null))));

async function renderEditor(...args: Parameters<typeof startEditor>) {
  const h = startEditor(...args);
  render(<EditorDrawer editor={h.editor} />);
  await flush();
  return h;
}

describe('the agent editor by keyboard', () => {
  it('opens on Name, not on its Close button', async () => {
    await renderEditor({ mode: 'create' });
    expect(document.activeElement).toBe(screen.getByLabelText('Name'));
  });

  it('has one tab stop per radio group, and the arrow keys move the choice', async () => {
    const user = userEvent.setup();
    const { editor } = await renderEditor({ mode: 'create' });
    const colours = screen.getByRole('radiogroup', { name: 'Colour' });
    const tabbable = within(colours)
      .getAllByRole('radio')
      .filter((r) => r.tabIndex === 0);
    expect(tabbable.map((r) => r.getAttribute('aria-label'))).toEqual(['Automatic']);
    tabbable[0].focus();
    await user.keyboard('{ArrowRight}');
    expect(editor.getSnapshot().context.fields.color).toBe('#1e3a8a');
    expect(document.activeElement?.getAttribute('aria-label')).toBe('Colour #1e3a8a');
    expect(
      within(colours)
        .getAllByRole('radio')
        .filter((r) => r.tabIndex === 0),
    ).toHaveLength(1);
    const avatars = screen.getByRole('radiogroup', { name: 'Pick an avatar' });
    const radios = within(avatars).getAllByRole('radio');
    expect(radios.filter((r) => r.tabIndex === 0).map((r) => r.textContent)).toEqual(['Initials']);
    radios[0].focus();
    await user.keyboard('{ArrowLeft}');
    expect(editor.getSnapshot().context.fields.avatar).toBe('📚');
    // From Model to Create: Personality, one stop per group, the custom colour and the avatar field.
    await user.type(screen.getByLabelText('Name'), 'Ada');
    await user.type(screen.getByLabelText('Role'), 'Analyst');
    await user.type(screen.getByLabelText('Prompt'), 'Weigh it.');
    await user.selectOptions(screen.getByLabelText('Model'), 'offline');
    screen.getByLabelText('Model').focus();
    let tabs = 0;
    while (document.activeElement?.textContent !== 'Create Agent' && tabs < 30) {
      await user.tab();
      tabs++;
    }
    expect(tabs).toBeLessThanOrEqual(6);
  });

  it('says why Create is disabled', async () => {
    const user = userEvent.setup();
    await renderEditor({ mode: 'create' });
    const create = screen.getByRole('button', { name: 'Create Agent' }) as HTMLButtonElement;
    expect(create.disabled).toBe(true);
    const why = document.getElementById(create.getAttribute('aria-describedby') ?? '');
    expect(why?.textContent).toBe('Add a name, a role and a prompt to create the agent.');
    await user.type(screen.getByLabelText('Name'), 'Ada');
    await user.type(screen.getByLabelText('Role'), 'Analyst');
    expect(document.getElementById(create.getAttribute('aria-describedby') ?? '')?.textContent).toBe(
      'Add a prompt to create the agent.',
    );
  });

  it('closes on Esc wherever the focus is, after Update Agent too', async () => {
    const user = userEvent.setup();
    const { editor } = await renderEditor({ mode: 'edit', agentId: agentFixture.id });
    await screen.findByRole('region', { name: 'Overview' });
    await user.click(screen.getByRole('button', { name: 'Update Agent' }));
    await screen.findByText('Saved');
    (document.activeElement as HTMLElement | null)?.blur();
    expect(document.activeElement).toBe(document.body);
    await user.keyboard('{Escape}');
    expect(editor.getSnapshot().status === 'done' || !editor.getSnapshot().matches('open')).toBe(true);
  });
});

function Two() {
  const [outer, setOuter] = useState(false);
  const [inner, setInner] = useState(false);
  return (
    <main>
      <button type="button" onClick={() => setOuter(true)}>
        Models
      </button>
      {outer && (
        <ModalDialog label="Models" onClose={() => setOuter(false)}>
          <button type="button" onClick={() => setInner(true)}>
            Delete
          </button>
          {inner && (
            <ModalDialog role="alertdialog" label="Confirm" onClose={() => setInner(false)}>
              <button type="button">Cancel</button>
            </ModalDialog>
          )}
        </ModalDialog>
      )}
    </main>
  );
}

describe('ModalDialog', () => {
  it('Esc closes only the top dialog, wherever the focus is, and the focus goes back to what opened each', async () => {
    const user = userEvent.setup();
    render(<Two />);
    await user.click(screen.getByRole('button', { name: 'Models' }));
    expect(document.activeElement?.textContent).toBe('Delete');
    await user.click(screen.getByRole('button', { name: 'Delete' }));
    expect(screen.getByRole('alertdialog', { name: 'Confirm' })).toBeTruthy();
    expect(document.activeElement?.textContent).toBe('Cancel');
    (document.activeElement as HTMLElement).blur();
    await user.keyboard('{Escape}');
    expect(screen.queryByRole('alertdialog')).toBeNull();
    expect(screen.getByRole('dialog', { name: 'Models' })).toBeTruthy();
    await frame();
    expect(document.activeElement?.textContent).toBe('Delete');
    await user.keyboard('{Escape}');
    expect(screen.queryByRole('dialog')).toBeNull();
    await frame();
    expect(document.activeElement?.textContent).toBe('Models');
  });
});

describe('one identity', () => {
  it('stores the automatic colour the editor previewed (from the name), and keeps a chosen one', () => {
    const f = { ...emptyFields, name: ' Ada ', role: 'r', prompt: 'p', model: 'offline' };
    expect(createRequest(f).color).toBe(agentColor({ id: 'Ada' }));
    expect(createRequest({ ...f, color: '#047857' }).color).toBe('#047857');
  });

  it('draws initials for an emoji the system cannot draw', () => {
    const agent = { id: 'a1', name: 'Ada Lovelace', avatar: '🛠️' };
    expect(agentAvatar(agent)).toBe('🛠️');
    expect(agentAvatar(agent, () => true)).toBe('🛠️');
    expect(agentAvatar(agent, () => false)).toBe('AL');
  });
});

describe('canvas words', () => {
  it('counts connections with the right plural', () => {
    expect(CANVAS_MESSAGES.autoConnected(1)).toBe('Auto-connected: 1 connection created');
    expect(CANVAS_MESSAGES.autoConnected(3)).toBe('Auto-connected: 3 connections created');
  });
});

describe('History rows', () => {
  const row = {
    id: 'd1',
    session_id: 's1',
    endpoint: '/ws/discuss',
    topic: 'Free buses?',
    status: 'ended' as const,
    frame_count: 4,
    created_at: '2026-01-02T10:00:00.000Z',
    participants: [
      { id: 'a', name: 'Ada', model: 'offline' },
      { id: 'b', name: 'Bo', model: 'groq:llama-3.3-70b' },
      { id: 'c', name: 'Cleo', model: 'offline' },
      { id: 'd', name: 'Dee', model: '@c1702324-86f5/walk-sim-7b' },
      { id: 'e', name: 'Eli', model: '@gone-conn/qwen', model_label: 'Old box · qwen' },
    ],
  };
  const loopback = {
    id: 'c1702324-86f5',
    name: 'Loopback sim',
    models: [{ id: '@c1702324-86f5/walk-sim-7b', name: 'walk-sim-7b', label: '' }],
  };
  it('name the models once each and the delete question names the date and the participants', () => {
    expect(modelsOf(row, (m, stored) => modelName(m, [loopback], stored))).toEqual([
      'demo model',
      'groq:llama-3.3-70b',
      'Loopback sim · walk-sim-7b',
      'Old box · qwen',
    ]);
    expect(deleteQuestion(row, '2 Jan 2026, 10:00')).toBe(
      'Delete the discussion “Free buses?” of 2 Jan 2026, 10:00 with Ada, Bo, Cleo, Dee and Eli? Its messages cannot be recovered.',
    );
  });
});
