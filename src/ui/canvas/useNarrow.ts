// Whether an element is narrower than a width, kept current as it resizes. The canvas asks it of its own surface
// (the minimap hides on a narrow canvas) instead of a CSS container query: making the canvas a size container
// tripled the layout of a 500-agent board and painted each card apart (npm run bench canvas, first render).
import { useEffect, useState, type RefObject } from 'react';

export function useNarrow(el: RefObject<HTMLElement | null>, maxWidth: number): boolean {
  const [narrow, setNarrow] = useState(false);
  useEffect(() => {
    const target = el.current;
    if (!target) return;
    const check = () => setNarrow(target.clientWidth > 0 && target.clientWidth <= maxWidth);
    check();
    const observer = new ResizeObserver(check);
    observer.observe(target);
    return () => observer.disconnect();
  }, [el, maxWidth]);
  return narrow;
}
