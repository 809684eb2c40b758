// What a node (or its menu) can ask of the workspace. Provided once per canvas with stable functions, so
// nodes stay memoized and never subscribe to the workspace themselves.
import { createContext, useContext } from 'react';

export interface CanvasActions {
  toggle: (agentId: string) => void;
  edit: (agentId: string) => void;
  askDelete: (agentId: string) => void;
  openMenu: (agentId: string, x: number, y: number) => void;
}

const noop = () => undefined;
export const CanvasActionsContext = createContext<CanvasActions>({
  toggle: noop,
  edit: noop,
  askDelete: noop,
  openMenu: noop,
});
export const useCanvasActions = () => useContext(CanvasActionsContext);
