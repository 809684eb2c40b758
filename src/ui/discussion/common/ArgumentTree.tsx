// The Reasoning Tree tab (its data: src/model/reasoningTree.ts): arguments nested by parent_id, as a WAI-ARIA tree (@headless-tree: arrow keys move and
// expand/collapse, Home/End jump). New branches open expanded; what the user collapsed stays collapsed.
import { hotkeysCoreFeature, syncDataLoaderFeature, type ItemInstance } from '@headless-tree/core';
import { useTree } from '@headless-tree/react';
import { useEffect, useMemo, useState } from 'react';
import type { ArgumentNode } from '../../../model/feedSelectors';
import { Confidence } from './Confidence';
import { EmptyState } from './EmptyState';

const ROOT = '__root__';

interface Index {
  nodes: Map<string, ArgumentNode>;
  children: Map<string, string[]>;
  parents: string[];
}

function indexTree(roots: ArgumentNode[]): Index {
  const nodes = new Map<string, ArgumentNode>();
  const children = new Map<string, string[]>([[ROOT, roots.map((r) => r.argument.id)]]);
  const parents: string[] = [];
  const walk = (n: ArgumentNode) => {
    nodes.set(n.argument.id, n);
    children.set(
      n.argument.id,
      n.children.map((c) => c.argument.id),
    );
    if (n.children.length > 0) parents.push(n.argument.id);
    n.children.forEach(walk);
  };
  roots.forEach(walk);
  return { nodes, children, parents };
}

const DEFAULT_EMPTY_HINT =
  'Start a discussion: the options the agents take and the claims their turns make appear here as a tree (with multi-round reasoning, their proposals, objections and syntheses).';

export function ArgumentTree({ roots, emptyHint = DEFAULT_EMPTY_HINT }: { roots: ArgumentNode[]; emptyHint?: string }) {
  const index = useMemo(() => indexTree(roots), [roots]);
  const [collapsed, setCollapsed] = useState<ReadonlySet<string>>(new Set());
  const [focusedItem, setFocusedItem] = useState<string | null>(null);
  const expandedItems = useMemo(() => index.parents.filter((p) => !collapsed.has(p)), [index, collapsed]);

  const tree = useTree<ArgumentNode | null>({
    rootItemId: ROOT,
    state: { expandedItems, focusedItem },
    setExpandedItems: (next) => {
      const value = typeof next === 'function' ? next(expandedItems) : next;
      setCollapsed(new Set(index.parents.filter((p) => !value.includes(p))));
    },
    setFocusedItem: (next) => setFocusedItem(typeof next === 'function' ? next(focusedItem) : next),
    getItemName: (item) => item.getItemData()?.argument.content ?? '',
    isItemFolder: (item) => (index.children.get(item.getId())?.length ?? 0) > 0,
    dataLoader: {
      getItem: (id) => index.nodes.get(id) ?? null,
      getChildren: (id) => index.children.get(id) ?? [],
    },
    indent: 18,
    features: [syncDataLoaderFeature, hotkeysCoreFeature],
  });

  // The library caches the structure; arguments arrive live, so it is rebuilt when they change.
  useEffect(() => tree.rebuildTree(), [tree, index]);

  if (roots.length === 0) {
    return <EmptyState title="No arguments yet">{emptyHint}</EmptyState>;
  }
  return (
    <div {...tree.getContainerProps('Argument tree')} className="arg-tree">
      {tree.getItems().map((item) => (
        <TreeRow key={item.getId()} item={item} />
      ))}
    </div>
  );
}

function TreeRow({ item }: { item: ItemInstance<ArgumentNode | null> }) {
  const node = item.getItemData();
  if (!node) return null;
  const { argument: a } = node;
  const level = item.getItemMeta().level;
  return (
    <div
      {...item.getProps()}
      // The row's name is its visible text (type, who, what, confidence, votes), not the content alone: a name
      // that leaves out what is shown fails WCAG 2.5.3 (label in name).
      aria-label={undefined}
      className={`arg-node${item.isFocused() ? ' arg-node--focused' : ''}`}
      style={{ paddingLeft: 8 + level * 18 }}
    >
      <span className="arg-node__toggle" aria-hidden="true">
        {item.isFolder() ? (item.isExpanded() ? '▾' : '▸') : '•'}
      </span>
      <span className={`kind-tag kind-tag--arg-${a.type}`}>{a.type}</span>
      <span className="arg-node__body">
        <span className="arg-node__who">{a.agent_name ?? a.agent_id.slice(-8)}</span>
        <span className="arg-node__text">{a.content}</span>
      </span>
      <span className="arg-node__meta">
        <Confidence value={a.confidence} />
        <span className="votes" title="Votes: support / oppose">
          ▲{a.votes.support} ▼{a.votes.oppose}
        </span>
      </span>
    </div>
  );
}
