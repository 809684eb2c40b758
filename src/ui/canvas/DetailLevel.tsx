// Level of detail by zoom: below CANVAS_DETAIL_ZOOM a card is one flat box with its name (canvas.css, switched by
// one class on the board, so no node re-renders for it). Drawn inside <ReactFlow>, it follows the store's zoom and
// reports a crossing from a layout effect: the canvas re-renders before the browser draws that zoom, so 500 cards
// are never styled at one level and then again at the other.
import { useLayoutEffect } from 'react';
import { useStore } from '@xyflow/react';
import { CANVAS_DETAIL_ZOOM } from '../../schemas/constants';

const isFar = (s: { transform: [number, number, number] }) => s.transform[2] < CANVAS_DETAIL_ZOOM;

export function DetailLevel({ onFar }: { onFar: (far: boolean) => void }) {
  const far = useStore(isFar);
  useLayoutEffect(() => onFar(far), [far, onFar]);
  return null;
}
