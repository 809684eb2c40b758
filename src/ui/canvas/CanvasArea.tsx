// The left area of the main screen: the agent canvas over the workspace actor, its controls, participants,
// banner, node menu, delete confirmation, and the editor drawer when the workspace has one open.
import { useCallback, useMemo, useState, type ReactNode } from 'react';
import { useSelector } from '@xstate/react';
import { ReactFlowProvider } from '@xyflow/react';
import type { WorkspaceActorRef } from '../../machines/workspace.machine';
import * as sel from '../../machines/workspace.selectors';
import { displayName, selectedAgents } from '../../model/agentDisplay';
import { ConfirmDialog } from '../common/ConfirmDialog';
import { EditorDrawer } from '../editor/EditorDrawer';
import { AgentCanvas } from './AgentCanvas';
import { CanvasActionsContext, type CanvasActions } from './canvasActions';
import { CanvasBanner } from './CanvasBanner';
import { ControlsBox } from './ControlsBox';
import { EmptyCanvas } from './EmptyCanvas';
import { NodeContextMenu } from './NodeContextMenu';
import { ParticipantsBox } from './ParticipantsBox';
import './canvas.css';

export function CanvasArea({
  workspace,
  notice,
  unreachable,
  panelShown = false,
  onSaveAsPanel,
}: {
  workspace: WorkspaceActorRef;
  notice?: ReactNode;
  /** The discussion panel is open: it says how many agents to select, so the Participants box does not. */
  panelShown?: boolean;
  /** Agents whose model server is not answering. */
  unreachable?: ReadonlySet<string>;
  /** 'Save as panel' for the selected agents (absent while the panels' actor is not running). */
  onSaveAsPanel?: () => void;
}) {
  const agents = useSelector(workspace, sel.selectAgents);
  const edges = useSelector(workspace, sel.selectEdges);
  const selection = useSelector(workspace, sel.selectSelection);
  const statuses = useSelector(workspace, sel.selectStatuses);
  const positions = useSelector(workspace, sel.selectPositions);
  const banner = useSelector(workspace, sel.selectBanner, sameBanner);
  const autoConnecting = useSelector(workspace, sel.selectIsAutoConnecting);
  const speaker = useSelector(workspace, sel.selectActiveSpeakerName);
  const speakerId = useSelector(workspace, sel.selectActiveSpeakerId);
  const loaded = useSelector(workspace, sel.selectIsAgentsLoaded);
  const deletion = useSelector(workspace, sel.selectAgentDeletionRef);
  const confirmation = useSelector(deletion, sel.selectDeleteConfirmation, sameConfirmation);
  const editor = useSelector(workspace, sel.selectEditorRef);
  const [menu, setMenu] = useState<{ agentId: string; x: number; y: number } | null>(null);

  const actions = useMemo<CanvasActions>(
    () => ({
      toggle: (id) => workspace.send({ type: 'selection.toggle', id }),
      edit: (agentId) => workspace.send({ type: 'editor.open', request: { mode: 'edit', agentId } }),
      askDelete: (agentId) => workspace.send({ type: 'agent.delete.request', agentId }),
      openMenu: (agentId, x, y) => setMenu({ agentId, x, y }),
    }),
    [workspace],
  );
  const onMoved = useCallback(
    (moves: { agentId: string; x: number; y: number }[]) =>
      moves.forEach((m) => workspace.send({ type: 'agent.moved', ...m })),
    [workspace],
  );
  const onConnect = useCallback(
    (from: string, to: string) => workspace.send({ type: 'connection.create', from, to }),
    [workspace],
  );
  const onDeleteEdges = useCallback(
    (ids: string[]) => workspace.send({ type: 'connections.delete', ids }),
    [workspace],
  );
  const onViewCentre = useCallback(
    (x: number, y: number, area: { width: number; height: number }) =>
      workspace.send({ type: 'canvas.viewCentre', x, y, area }),
    [workspace],
  );
  // Counts Auto-layout presses, so the canvas fits the new arrangement into view (view-local).
  const [layouts, setLayouts] = useState(0);
  const openCreate = () => workspace.send({ type: 'editor.open', request: { mode: 'create' } });
  const selected = useMemo(() => selectedAgents(agents, selection), [agents, selection]);
  const menuAgent = menu ? agents.find((a) => a.id === menu.agentId) : undefined;

  return (
    <CanvasActionsContext.Provider value={actions}>
      <div className="agora-canvas">
        <ReactFlowProvider>
          <AgentCanvas
            agents={agents}
            edges={edges}
            selection={selection}
            statuses={statuses}
            positions={positions}
            onToggle={actions.toggle}
            onMoved={onMoved}
            onConnect={onConnect}
            onDeleteEdges={onDeleteEdges}
            onNodeMenu={actions.openMenu}
            speakerId={speakerId}
            unreachable={unreachable}
            onViewCentre={onViewCentre}
            fitRequest={layouts}
          />
        </ReactFlowProvider>
        {loaded && agents.length === 0 && <EmptyCanvas onCreate={openCreate} />}
        <div className="agora-canvas-overlay">
          <ControlsBox
            agentCount={agents.length}
            connectionCount={edges.length}
            selectedCount={selection.length}
            activeSpeaker={speaker}
            autoConnecting={autoConnecting}
            onAdd={openCreate}
            onAutoConnect={() => workspace.send({ type: 'connections.autoConnect' })}
            onAutoLayout={() => {
              workspace.send({ type: 'canvas.autoLayout' });
              setLayouts((n) => n + 1);
            }}
            onClearSelection={() => workspace.send({ type: 'selection.clear' })}
          />
          <ParticipantsBox
            agents={selected}
            onRemove={actions.toggle}
            sayCount={!panelShown}
            onSaveAsPanel={onSaveAsPanel}
          />
          {notice}
        </div>
        <CanvasBanner banner={banner} onDismiss={() => workspace.send({ type: 'banner.dismiss' })} />
        {menu && menuAgent && (
          <NodeContextMenu
            agentName={displayName(menuAgent)}
            x={menu.x}
            y={menu.y}
            onClose={() => setMenu(null)}
            onEdit={() => {
              setMenu(null);
              actions.edit(menu.agentId);
            }}
            onDelete={() => {
              setMenu(null);
              actions.askDelete(menu.agentId);
            }}
          />
        )}
        {confirmation && (
          <ConfirmDialog
            message={confirmation.message}
            confirmLabel="Delete agent"
            busy={confirmation.busy}
            confirmDisabled={!confirmation.ready}
            onConfirm={() => workspace.send({ type: 'agent.delete.confirm' })}
            onCancel={() => workspace.send({ type: 'agent.delete.cancel' })}
          />
        )}
      </div>
      {editor && <EditorDrawer key={editor.id + editor.sessionId} editor={editor} />}
    </CanvasActionsContext.Provider>
  );
}

function sameConfirmation(
  a: ReturnType<typeof sel.selectDeleteConfirmation>,
  b: ReturnType<typeof sel.selectDeleteConfirmation>,
) {
  return a === b || (!!a && !!b && a.message === b.message && a.ready === b.ready && a.busy === b.busy);
}

function sameBanner(a: ReturnType<typeof sel.selectBanner>, b: ReturnType<typeof sel.selectBanner>) {
  return a === b || (!!a && !!b && a.kind === b.kind && a.text === b.text);
}
