// Counts which React Flow node wrappers re-rendered, through the hook React DevTools uses (React calls
// onCommitFiberRoot after every commit, production builds included). Must be imported before react-dom.
// A node wrapper is the fiber whose child is the `.react-flow__node` div; it rendered in a commit when its
// hooks list is a new object (React rebuilds the list on every render and keeps it on a bail-out).
// The tree is walked only while counting, so timings taken with counting off are not coloured by it.

interface Fiber {
  child: Fiber | null;
  sibling: Fiber | null;
  type: unknown;
  memoizedProps: Record<string, unknown> | null;
  memoizedState: unknown;
}

const lastHooks = new Map<string, unknown>();
let counting = false;
let injected = false;
let lastRoot: { current: Fiber } | null = null;
let counts = new Map<string, number>();

function wrapperId(f: Fiber): string | null {
  const host = f.child;
  if (!host || typeof host.type !== 'string' || host.sibling) return null;
  const cls = host.memoizedProps?.className;
  const id = host.memoizedProps?.['data-id'];
  return typeof cls === 'string' && cls.startsWith('react-flow__node ') && typeof id === 'string' ? id : null;
}

function walk(root: Fiber) {
  const stack: Fiber[] = [root];
  while (stack.length > 0) {
    const f = stack.pop()!;
    if (f.sibling) stack.push(f.sibling);
    const id = wrapperId(f);
    if (id === null) {
      if (f.child) stack.push(f.child);
      continue;
    }
    // The node's own content is the probe's business; do not descend.
    if (lastHooks.has(id) && lastHooks.get(id) !== f.memoizedState) counts.set(id, (counts.get(id) ?? 0) + 1);
    lastHooks.set(id, f.memoizedState);
  }
}

(globalThis as Record<string, unknown>).__REACT_DEVTOOLS_GLOBAL_HOOK__ = {
  supportsFiber: true,
  renderers: new Map(),
  inject: () => {
    injected = true;
    return 1;
  },
  checkDCE: () => undefined,
  onScheduleFiberRoot: () => undefined,
  onCommitFiberRoot: (_id: number, root: { current: Fiber }) => {
    lastRoot = root;
    if (counting) walk(root.current);
  },
  onCommitFiberUnmount: () => undefined,
  onPostCommitFiberRoot: () => undefined,
};

/** Starts counting: the walk first records every wrapper's current hooks, so only later renders count. */
export function startWatch() {
  if (!injected) throw new Error('React did not attach to the commit hook (commitWatch must load before react-dom)');
  lastHooks.clear();
  if (lastRoot) walk(lastRoot.current);
  counts = new Map();
  counting = true;
}

export function stopWatch(): Record<string, number> {
  counting = false;
  return Object.fromEntries(counts);
}
