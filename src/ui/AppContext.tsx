// The root actor and the UI configuration, handed to every view. Views read snapshots with useSelector and
// send events; they never create actors of their own.
import { createContext, useContext, type ReactNode } from 'react';
import type { AppActorRef } from '../machines/app.machine';
import type { UiConfig } from './config';

/** Exported for views that work with or without the app around them (a message card in a unit test). */
export const AppActorContext = createContext<AppActorRef | null>(null);
const UiConfigContext = createContext<UiConfig | null>(null);

export function AppProvider({
  actor,
  config,
  children,
}: {
  actor: AppActorRef;
  config: UiConfig;
  children: ReactNode;
}) {
  return (
    <AppActorContext.Provider value={actor}>
      <UiConfigContext.Provider value={config}>{children}</UiConfigContext.Provider>
    </AppActorContext.Provider>
  );
}

export function useAppActor(): AppActorRef {
  const actor = useContext(AppActorContext);
  if (!actor) throw new Error('useAppActor needs <AppProvider>');
  return actor;
}

export function useUiConfig(): UiConfig {
  const config = useContext(UiConfigContext);
  if (!config) throw new Error('useUiConfig needs <AppProvider>');
  return config;
}
