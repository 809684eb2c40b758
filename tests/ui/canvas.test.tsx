// @vitest-environment jsdom
// The canvas over a real workspace actor (its I/O replaced): controls, participants, context menu, keyboard.
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { act, cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createActor, fromPromise } from 'xstate';
import { workspaceMachine, type WorkspaceActorRef } from '../../src/machines/workspace.machine';
import { agentDeletionMachine } from '../../src/machines/agentDeletion.machine';
import { autoConnectMachine } from '../../src/machines/autoConnect.machine';
import { connectionCreateMachine } from '../../src/machines/connectionCreate.machine';
import { connectionDeleteMachine } from '../../src/machines/connectionDelete.machine';
import { positionSaveMachine } from '../../src/machines/positionSave.machine';
import { CanvasArea } from '../../src/ui/canvas/CanvasArea';
import type { Agent } from '../../src/schemas/agents';
import { CANVAS_MESSAGES } from '../../src/schemas/messages';
import { editorWithFakes, fakeAgentApi, fakeMicrophone } from '../machines/editorHarness';
import { installFlowStubs, measured } from './canvasStubs';

beforeAll(installFlowStubs);
afterEach(cleanup);

const agents: Agent[] = [
  { id: 'a1', name: 'Ada', role: 'Analyst', x: 0, y: 0 },
  { id: 'a2', name: 'Bo', role: 'Critic', x: 250, y: 0 },
  { id: 'a3', name: 'Cy', role: 'Moderator', x: 500, y: 0 },
];

async function renderCanvas(opts: { panelShown?: boolean } = {}) {
  const calls: Record<string, unknown[]> = {};
  const spy = <T,>(name: string, fn: () => T) =>
    fromPromise<T, unknown>(async ({ input }) => {
      (calls[name] ??= []).push(input);
      return fn();
    });
  let serverAgents = agents;
  const logic = workspaceMachine.provide({
    actors: {
      loadAgents: fromPromise(async () => serverAgents),
      loadConnections: fromPromise(async () => [{ id: 'c1', source: 'a1', target: 'a2' }]),
      loadStats: fromPromise(async () => ({})),
      editor: editorWithFakes(fakeAgentApi(), fakeMicrophone().logic),
      positionSave: positionSaveMachine.provide({
        actors: {
          savePosition: spy('savePosition', () => ({})),
          pickFallbackPosition: spy('pickFallbackPosition', () => ({ x: 100, y: 100 })),
        } as never,
      }),
      connectionCreate: connectionCreateMachine.provide({
        actors: {
          createConnection: spy('createConnection', () => ({ id: 'c2', source: 'a2', target: 'a3' })),
        } as never,
      }),
      connectionDelete: connectionDeleteMachine.provide({
        actors: { deleteConnections: spy('deleteConnections', () => []) } as never,
      }),
      autoConnect: autoConnectMachine.provide({
        actors: { postAutoConnect: spy('autoConnect', () => ({ connections_created: 2 })) } as never,
      }),
      agentDeletion: agentDeletionMachine.provide({
        actors: {
          countAgentAudio: spy('countAgentAudio', () => 4),
          deleteAgent: fromPromise<unknown, { agentId: string }>(async ({ input }) => {
            (calls.deleteAgent ??= []).push(input);
            serverAgents = serverAgents.filter((a) => a.id !== input.agentId);
            return { success: true };
          }),
        } as never,
      }),
    } as never,
  });
  const workspace = createActor(logic).start() as unknown as WorkspaceActorRef;
  render(
    <div style={{ width: 1200, height: 800 }}>
      <CanvasArea workspace={workspace} panelShown={opts.panelShown} />
    </div>,
  );
  await act(measured);
  return { workspace, calls };
}

const node = (name: RegExp | string) =>
  screen.getByRole('button', { name: typeof name === 'string' ? new RegExp(`^${name},`) : name });
const count = (id: string) => screen.getByTestId(`canvas-${id}`).textContent;

describe('canvas controls and participants', () => {
  it('shows the counts, the hint when nothing is selected, and toggles selection by click', async () => {
    const user = userEvent.setup();
    await renderCanvas();
    expect(count('count-agents')).toBe('3');
    expect(count('count-connections')).toBe('1');
    expect(count('count-selected')).toBe('0');
    expect(screen.getByText(CANVAS_MESSAGES.selectHint)).toBeTruthy();
    expect((screen.getByRole('button', { name: 'Clear Selection (0)' }) as HTMLButtonElement).disabled).toBe(true);
    expect(screen.getByText('Active speaker:').textContent).toContain('None');

    // A click, not user-event's full pointer sequence: its mousedown has no `view`, which React Flow's drag
    // handling (d3-drag) needs; dragging itself is covered end to end.
    fireEvent.click(node('Ada'));
    fireEvent.click(node('Cy'));
    expect(count('count-selected')).toBe('2');
    expect(node('Ada').getAttribute('aria-pressed')).toBe('true');
    const participants = screen.getByRole('region', { name: 'Participants' });
    expect(within(participants).getByText('Ada')).toBeTruthy();
    expect(within(participants).getByText('Cy')).toBeTruthy();
    expect(within(participants).getByText(/Discussion panel/)).toBeTruthy();
    expect(screen.queryByText(CANVAS_MESSAGES.selectHint)).toBeNull();

    await user.click(within(participants).getByRole('button', { name: 'Remove Cy' }));
    expect(count('count-selected')).toBe('1');
    await user.click(screen.getByRole('button', { name: 'Clear Selection (1)' }));
    expect(count('count-selected')).toBe('0');
    expect(screen.getByText(CANVAS_MESSAGES.selectHint)).toBeTruthy();
  });

  it('leaves the select-two sentence to the open panel: the Participants box lists, and says no count', async () => {
    await renderCanvas({ panelShown: true });
    expect(screen.queryByText(CANVAS_MESSAGES.selectHint)).toBeNull();
    expect(screen.queryByRole('region', { name: 'Participants' })).toBeNull();
    fireEvent.click(node('Ada'));
    const participants = screen.getByRole('region', { name: 'Participants' });
    expect(within(participants).getByText('Ada')).toBeTruthy();
    expect(within(participants).queryByText(/one more agent/)).toBeNull();
  });

  it('auto-connect shows the success banner, which can be dismissed', async () => {
    const user = userEvent.setup();
    const { calls } = await renderCanvas();
    await user.click(screen.getByRole('button', { name: 'Auto-Connect' }));
    await act(measured);
    expect(calls.autoConnect).toHaveLength(1);
    expect(screen.getByRole('status').textContent).toContain('Auto-connected: 2 connections created');
    await user.click(screen.getByRole('button', { name: 'Dismiss message' }));
    expect(screen.queryByText(/Auto-connected/)).toBeNull();
  });

  it('Add Agent opens the editor drawer in create mode', async () => {
    const user = userEvent.setup();
    await renderCanvas();
    await user.click(screen.getByRole('button', { name: '+ Add Agent' }));
    expect(screen.getByRole('dialog', { name: 'Create Agent' })).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Close editor' }));
    expect(screen.queryByRole('dialog')).toBeNull();
  });
});

describe('node context menu', () => {
  it('right-click offers Edit Agent and Delete Agent; Escape and a click outside close it', async () => {
    const user = userEvent.setup();
    await renderCanvas();
    fireEvent.contextMenu(node('Bo'), { clientX: 300, clientY: 200 });
    const menu = screen.getByRole('menu', { name: 'Actions for Bo' });
    const items = within(menu).getAllByRole('menuitem');
    expect(items.map((i) => i.textContent)).toEqual(['Edit Agent', 'Delete Agent']);
    expect(document.activeElement).toBe(items[0]);
    await user.keyboard('{ArrowDown}');
    expect(document.activeElement).toBe(items[1]);
    await user.keyboard('{Escape}');
    expect(screen.queryByRole('menu')).toBeNull();

    fireEvent.contextMenu(node('Bo'), { clientX: 300, clientY: 200 });
    await user.click(screen.getByTestId('context-menu-backdrop'));
    expect(screen.queryByRole('menu')).toBeNull();
  });

  it('Edit Agent opens the editor on that agent', async () => {
    const user = userEvent.setup();
    const { workspace } = await renderCanvas();
    fireEvent.contextMenu(node('Bo'), { clientX: 300, clientY: 200 });
    await user.click(screen.getByRole('menuitem', { name: 'Edit Agent' }));
    expect(screen.queryByRole('menu')).toBeNull();
    expect(workspace.getSnapshot().context.editorRequest).toEqual({ mode: 'edit', agentId: 'a2' });
    expect(screen.getByRole('dialog', { name: /^Edit / })).toBeTruthy();
  });

  it('Delete Agent asks, naming the agent and its audio count, then deletes', async () => {
    const user = userEvent.setup();
    const { calls } = await renderCanvas();
    fireEvent.contextMenu(node('Bo'), { clientX: 300, clientY: 200 });
    await user.click(screen.getByRole('menuitem', { name: 'Delete Agent' }));
    await act(measured);
    const dialog = screen.getByRole('alertdialog');
    expect(dialog.textContent).toContain('Delete agent "Bo"? 4 audio files will also be deleted.');
    await user.click(within(dialog).getByRole('button', { name: 'Delete agent' }));
    await act(measured);
    expect(calls.deleteAgent).toEqual([{ agentId: 'a2' }]);
    expect(count('count-agents')).toBe('2');
    expect(screen.queryByRole('button', { name: /^Bo,/ })).toBeNull();
  });
});

describe('keyboard', () => {
  it('Enter and Space toggle selection, Delete asks, e opens the editor', async () => {
    const user = userEvent.setup();
    const { workspace } = await renderCanvas();
    node('Ada').focus();
    await user.keyboard('{Enter}');
    expect(count('count-selected')).toBe('1');
    node('Ada').focus();
    await user.keyboard(' ');
    expect(count('count-selected')).toBe('0');
    node('Cy').focus();
    await user.keyboard('{Delete}');
    await act(measured);
    expect(screen.getByRole('alertdialog').textContent).toContain('Delete agent "Cy"?');
    await user.keyboard('{Escape}');
    expect(screen.queryByRole('alertdialog')).toBeNull();
    node('Cy').focus();
    await user.keyboard('e');
    expect(workspace.getSnapshot().context.editorRequest).toEqual({ mode: 'edit', agentId: 'a3' });
  });
});
