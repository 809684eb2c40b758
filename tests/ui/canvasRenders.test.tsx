// @vitest-environment jsdom
// Selecting one node among many re-renders that node only (the canvas budget, counted, not timed).
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { act, cleanup, render, screen } from '@testing-library/react';
import { useState } from 'react';
import { AgentCanvas } from '../../src/ui/canvas/AgentCanvas';
import { renderProbe } from '../../src/ui/canvas/AgentNode';
import type { Agent } from '../../src/schemas/agents';
import { installFlowStubs, measured } from './canvasStubs';

beforeAll(installFlowStubs);
afterEach(() => {
  cleanup();
  renderProbe.count = undefined;
});

const N = 30;
const agents: Agent[] = Array.from({ length: N }, (_, i) => ({
  id: `a${i}`,
  name: `Agent ${i}`,
  role: 'Role',
  x: (i % 10) * 200,
  y: Math.floor(i / 10) * 120,
}));
const edges = agents.slice(1).map((a, i) => ({ id: `e${i}`, source: agents[i].id, target: a.id }));

function Harness() {
  const [selection, setSelection] = useState<string[]>([]);
  return (
    <div style={{ width: 1200, height: 800 }}>
      <AgentCanvas
        agents={agents}
        edges={edges}
        selection={selection}
        statuses={{}}
        onToggle={(id) => setSelection((s) => (s.includes(id) ? s.filter((x) => x !== id) : [...s, id]))}
        onMoved={() => undefined}
        onConnect={() => undefined}
        onDeleteEdges={() => undefined}
        onNodeMenu={() => undefined}
      />
    </div>
  );
}

describe('agent canvas renders', () => {
  it('draws every agent as an accessible node and re-renders only the clicked one on selection', async () => {
    const renders = new Map<string, number>();
    renderProbe.count = (id) => renders.set(id, (renders.get(id) ?? 0) + 1);
    render(<Harness />);
    await act(measured);
    expect(screen.getAllByRole('button', { name: /^Agent \d+, Role, Idle$/ })).toHaveLength(N);

    renders.clear();
    const node = screen.getByRole('button', { name: 'Agent 7, Role, Idle' });
    await act(async () => node.click());
    expect(screen.getByRole('button', { name: 'Agent 7, Role, Idle, selected' })).toBeTruthy();
    expect([...renders.keys()]).toEqual(['a7']);
  });
});
