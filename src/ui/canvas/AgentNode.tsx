// One agent on the canvas: the agent's avatar circle in its colour, name, role, and status (a glyph and a word, in
// the status colour, which also edges the card); an edit button beside the card's toggle. It draws from `data`
// alone, so it re-renders only when what its data says changes — not when React Flow measures it, moves it while
// dragging, or pans the board. Its cost per pan frame is kept small: nothing in it starts a paint chunk of its own
// (no inline SVG, whose root clips; no mask, filter or overflow clip; the status glyph and the pencil are shared SVG
// images drawn as backgrounds of the status line's ::before and of the edit button, not elements of their own),
// layout containment on the card, and, zoomed out below CANVAS_DETAIL_ZOOM, one flat box with the name (canvas.css,
// switched by one class on the board, so no node re-renders for it).
// Keyboard: Enter/Space toggles selection, Delete asks to delete, 'e' opens the editor, the context-menu key or
// Shift+F10 opens the menu.
import { memo, type CSSProperties } from 'react';
import { Handle, Position, type Node, type NodeProps } from '@xyflow/react';
import type { AgentNodeData } from './flowElements';
import { useCanvasActions } from './canvasActions';
import { STATUS_LOOKS } from './statusLook';
import { CANVAS_MESSAGES } from '../../schemas/messages';

export type AgentFlowNode = Node<AgentNodeData, 'agent'>;

/** Counts renders per agent id when a benchmark or test installs a counter (never in production). */
export const renderProbe: { count?: (agentId: string) => void } = {};

export const AgentNode = memo(function AgentNode({ data }: Pick<NodeProps<AgentFlowNode>, 'data'>) {
  renderProbe.count?.(data.agentId);
  const actions = useCanvasActions();
  const look = STATUS_LOOKS[data.status];
  const speaking = data.status === 'speaking' || data.status === 'responding';
  // An idle agent whose model server is down says so in its status line (the card keeps its size).
  const down = data.unreachable === true && data.status === 'idle';
  const statusLabel = down ? CANVAS_MESSAGES.modelNotAnswering : look.label;
  // The card holds two controls side by side (never one inside the other): the selection toggle, which carries
  // the node's name, and the edit button.
  return (
    <div
      className={`agora-node${data.selected ? ' is-selected' : ''}${speaking ? ' is-speaking' : ''}${down ? ' is-unreachable' : ''}${data.position ? ` has-position position-${data.positionSlot ?? 0}` : ''}`}
      style={{ '--status': look.color, '--glyph': look.glyph, '--agent': data.color } as CSSProperties}
      data-status={data.status}
      title={data.voice ? `Voice: ${data.voice}` : undefined}
    >
      <Handle type="target" position={Position.Top} title={CANVAS_MESSAGES.connectHandle} />
      {/* Beside the toggle, not in it: the toggle's name must contain its visible text, and the avatar is decoration. */}
      <span className="agora-node-avatar" aria-hidden="true">
        {data.avatar}
      </span>
      <div
        className="agora-node-main"
        role="button"
        tabIndex={0}
        aria-pressed={data.selected}
        aria-label={`${data.name}, ${data.role}, ${statusLabel}${data.position ? `, holds: ${data.position}` : ''}${data.selected ? ', selected' : ''}`}
        onKeyDown={(e) => {
          if (e.target !== e.currentTarget) return;
          if (e.key === 'Enter' || e.key === ' ') {
            e.preventDefault();
            actions.toggle(data.agentId);
          } else if (e.key === 'Delete' || e.key === 'Backspace') {
            e.preventDefault();
            e.stopPropagation();
            actions.askDelete(data.agentId);
          } else if (e.key === 'e' || e.key === 'E') {
            e.preventDefault();
            actions.edit(data.agentId);
          } else if (e.key === 'ContextMenu' || (e.key === 'F10' && e.shiftKey)) {
            e.preventDefault();
            const r = e.currentTarget.getBoundingClientRect();
            actions.openMenu(data.agentId, r.left + r.width / 2, r.top + r.height / 2);
          }
        }}
      >
        <span className="agora-node-text">
          {/* The spaces keep the words apart in the visible text, which the accessible name must contain. */}
          <span className="agora-node-name">{data.name}</span> <span className="agora-node-role">{data.role}</span>{' '}
          <span className="agora-node-status">{statusLabel}</span>
          {data.position && (
            <>
              {' '}
              <span className="agora-node-position" title={data.position}>
                holds: {data.position}
              </span>
            </>
          )}
        </span>
      </div>
      <button
        type="button"
        className="agora-node-edit nodrag"
        tabIndex={-1}
        aria-label={`Edit ${data.name}`}
        title={`Edit ${data.name}`}
        onClick={(e) => {
          e.stopPropagation();
          actions.edit(data.agentId);
        }}
      />
      <Handle type="source" position={Position.Bottom} title={CANVAS_MESSAGES.connectHandle} />
    </div>
  );
}, sameData);

/** The data holds only primitives, so equal fields draw the same node (a moved agent gets a new object). */
function sameData(
  { data: a }: Pick<NodeProps<AgentFlowNode>, 'data'>,
  { data: b }: Pick<NodeProps<AgentFlowNode>, 'data'>,
) {
  return (
    a === b ||
    (a.agentId === b.agentId &&
      a.name === b.name &&
      a.role === b.role &&
      a.status === b.status &&
      a.selected === b.selected &&
      a.color === b.color &&
      a.avatar === b.avatar &&
      a.voice === b.voice &&
      a.position === b.position &&
      a.positionSlot === b.positionSlot &&
      a.unreachable === b.unreachable)
  );
}

export const nodeTypes = { agent: AgentNode };
