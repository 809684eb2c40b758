// What @xyflow/react needs from a browser that jsdom lacks: ResizeObserver, DOMMatrixReadOnly, and element
// sizes (jsdom lays nothing out, so every node would be 0×0 and never counted as measured).
class ResizeObserverStub {
  constructor(private readonly cb: ResizeObserverCallback) {}
  observe(target: Element) {
    // Browsers report once after layout; so does this, on the next task.
    setTimeout(
      () =>
        this.cb(
          [{ target, contentRect: target.getBoundingClientRect() } as unknown as ResizeObserverEntry],
          this as unknown as ResizeObserver,
        ),
      0,
    );
  }
  unobserve() {}
  disconnect() {}
}

class DOMMatrixReadOnlyStub {
  m22: number;
  constructor(transform?: string) {
    const scale = /scale\(([\d.]+)\)/.exec(transform ?? '');
    this.m22 = scale ? Number(scale[1]) : 1;
  }
}

export function installFlowStubs() {
  const g = globalThis as Record<string, unknown>;
  g.ResizeObserver ??= ResizeObserverStub;
  g.DOMMatrixReadOnly ??= DOMMatrixReadOnlyStub;
  Object.defineProperties(HTMLElement.prototype, {
    offsetWidth: { configurable: true, get: () => 180 },
    offsetHeight: { configurable: true, get: () => 80 },
  });
  (SVGElement.prototype as unknown as { getBBox: () => DOMRect }).getBBox = () =>
    ({ x: 0, y: 0, width: 0, height: 0 }) as DOMRect;
}

/** Waits until React Flow has measured (and so shown) every node, or a second has passed. */
export async function measured() {
  const hidden = () => document.querySelectorAll('.react-flow__node[style*="visibility: hidden"]').length;
  for (let waited = 0; waited < 1000; waited += 10) {
    await new Promise((r) => setTimeout(r, 10));
    if (hidden() === 0) return;
  }
}
