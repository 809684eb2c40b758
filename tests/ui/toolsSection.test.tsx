// @vitest-environment jsdom
// The editor's 'Tools' section (docs/tools.md) over the real editor chart with fake I/O: the catalog grouped by
// server with descriptions and switches (nothing on), a server that could not be listed says why, and the choices
// go out with Update Agent as the agent's `tools` / `ask_before_tools` (only what changed).
import { act, cleanup, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import { EditorDrawer } from '../../src/ui/editor/EditorDrawer';
import { agentFixture, startEditor } from '../machines/editorHarness';

afterEach(cleanup);

const flush = () => act(() => new Promise((r) => setTimeout(r, 0)));

async function renderEditor(...args: Parameters<typeof startEditor>) {
  const h = startEditor(...args);
  render(<EditorDrawer editor={h.editor} />);
  await flush();
  return h;
}

describe("editor: 'Tools' section", () => {
  it('lists every tool by server with its description, all off; a server that failed says why', async () => {
    await renderEditor({ mode: 'edit', agentId: agentFixture.id });
    const section = await screen.findByRole('region', { name: 'Tools' });
    const builtin = within(section).getByRole('group', { name: /Built-in tools/ });
    const switches = within(builtin).getAllByRole('switch') as HTMLInputElement[];
    expect(switches).toHaveLength(3);
    expect(switches.every((s) => !s.checked)).toBe(true);
    expect(within(builtin).getByText('calculator')).toBeTruthy();
    expect(within(builtin).getByText(/Exact arithmetic on an expression/)).toBeTruthy();
    const weather = within(section).getByRole('group', { name: /Weather MCP/ });
    expect(weather.textContent).toContain('Its tools could not be listed: Connection refused at 127.0.0.1:9');
    expect(
      (within(section).getByRole('checkbox', { name: /Ask me before each call/ }) as HTMLInputElement).checked,
    ).toBe(false);
  });

  it('saves the switched-on ids and Ask me before each call with Update Agent', async () => {
    const user = userEvent.setup();
    const { api } = await renderEditor({ mode: 'edit', agentId: agentFixture.id });
    const section = await screen.findByRole('region', { name: 'Tools' });
    await user.click(within(section).getByRole('switch', { name: /calculator/ }));
    await user.click(within(section).getByRole('switch', { name: /search_papers/ }));
    await user.click(within(section).getByRole('checkbox', { name: /Ask me before each call/ }));
    expect(within(section).getByText('Not saved yet')).toBeTruthy();
    expect(within(section).getByText('2 on')).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Update Agent' }));
    await flush();
    expect(api.updateAgent.calls.at(-1)?.body).toMatchObject({
      tools: ['builtin/calculator', 'builtin/search_papers'],
      ask_before_tools: true,
    });
    expect(await screen.findByText('Saved')).toBeTruthy();
    expect(within(section).queryByText('Not saved yet')).toBeNull();
  });

  it('an update that changes no tool sends no tool fields; a stored tool no server lists can be turned off', async () => {
    const user = userEvent.setup();
    const stored = { ...agentFixture, tools: ['builtin/calculator', 'gone-server/lookup'] };
    const { api } = await renderEditor({ mode: 'edit', agentId: agentFixture.id }, (a) => {
      a.loadAgent.answer(() => stored);
      a.updateAgent.answer(({ body }) => ({ ...stored, ...(body as object) }));
    });
    const section = await screen.findByRole('region', { name: 'Tools' });
    expect((within(section).getByRole('switch', { name: /calculator/ }) as HTMLInputElement).checked).toBe(true);
    const gone = within(section).getByRole('group', { name: 'No longer offered' });
    await user.click(screen.getByRole('button', { name: 'Update Agent' }));
    await flush();
    expect(api.updateAgent.calls.at(-1)?.body).not.toHaveProperty('tools');
    expect(api.updateAgent.calls.at(-1)?.body).not.toHaveProperty('ask_before_tools');
    expect(await screen.findByText('Saved')).toBeTruthy();
    await user.click(within(gone).getByRole('switch', { name: /gone-server\/lookup/ }));
    await user.click(screen.getByRole('button', { name: 'Update Agent' }));
    await flush();
    expect(api.updateAgent.calls.at(-1)?.body).toMatchObject({ tools: ['builtin/calculator'] });
  });
});
