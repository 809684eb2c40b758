// Where the app runs, read once at the edge from Vite's env and the page location: the views get the
// finished UiConfig (tests pass their own) and never parse anything themselves.
import { demoAccountList, type DemoAccount } from '../schemas/demoAccounts';
import type { UiConfig } from '../ui/config';

export const DEFAULT_DEMO_ACCOUNTS: DemoAccount[] = [
  { label: 'Demo researcher', email: 'demo@agora.local', password: 'demo1234' },
  { label: 'Demo reviewer', email: 'reviewer@agora.local', password: 'demo1234' },
];

/** VITE_DEMO_ACCOUNTS is a JSON list of {label, email, password}; anything else falls back to the defaults. */
export function parseDemoAccounts(raw: string | undefined): DemoAccount[] {
  if (!raw) return DEFAULT_DEMO_ACCOUNTS;
  let json: unknown;
  try {
    json = JSON.parse(raw);
  } catch {
    return DEFAULT_DEMO_ACCOUNTS;
  }
  const parsed = demoAccountList.safeParse(json);
  return parsed.success ? parsed.data : DEFAULT_DEMO_ACCOUNTS;
}

export function socketBase(loc: Pick<Location, 'protocol' | 'host'>) {
  return `${loc.protocol === 'https:' ? 'wss' : 'ws'}://${loc.host}`;
}

export function readUiConfig(env: ImportMetaEnv = import.meta.env, loc: Pick<Location, 'protocol' | 'host' | 'origin'> = window.location): UiConfig {
  return {
    isDev: Boolean(env.DEV),
    environment: env.MODE ?? (env.DEV ? 'development' : 'production'),
    apiUrl: loc.origin,
    socketUrl: socketBase(loc),
    host: loc.host,
    demoAccounts: parseDemoAccounts(env.VITE_DEMO_ACCOUNTS as string | undefined),
  };
}
