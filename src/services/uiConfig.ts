// Where the app runs, read once at the edge from Vite's env and the page location: the views get the
// finished UiConfig (tests pass their own) and never parse anything themselves.
import type { DemoAccount } from '../schemas/demoAccounts';
import type { UiConfig } from '../ui/config';

/** The quick-fill accounts, already checked when the app was built (demoAccountsConfig.ts, vite.config.ts). */
declare const __AGORA_DEMO_ACCOUNTS__: DemoAccount[];

export function socketBase(loc: Pick<Location, 'protocol' | 'host'>) {
  return `${loc.protocol === 'https:' ? 'wss' : 'ws'}://${loc.host}`;
}

export function readUiConfig(
  env: ImportMetaEnv = import.meta.env,
  loc: Pick<Location, 'protocol' | 'host' | 'origin'> = window.location,
  demoAccounts: DemoAccount[] = __AGORA_DEMO_ACCOUNTS__,
): UiConfig {
  return {
    isDev: Boolean(env.DEV),
    environment: env.MODE ?? (env.DEV ? 'development' : 'production'),
    apiUrl: loc.origin,
    socketUrl: socketBase(loc),
    host: loc.host,
    demoAccounts,
  };
}
