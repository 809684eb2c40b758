// What the views show about where the app runs: development tools, API and socket addresses, demo accounts.
// Read once from Vite's env and the page location; tests pass their own.
import { z } from 'zod';

const demoAccount = z.object({ label: z.string().min(1), email: z.string().min(1), password: z.string().min(1) });
export type DemoAccount = z.infer<typeof demoAccount>;

export const DEFAULT_DEMO_ACCOUNTS: DemoAccount[] = [
  { label: 'Demo researcher', email: 'demo@agora.local', password: 'demo1234' },
  { label: 'Demo reviewer', email: 'reviewer@agora.local', password: 'demo1234' },
];

export interface UiConfig {
  /** Development mode: shows Debug, Test, Test Backend and the login debug toggle. */
  isDev: boolean;
  environment: string;
  apiUrl: string;
  socketUrl: string;
  host: string;
  demoAccounts: DemoAccount[];
}

/** VITE_DEMO_ACCOUNTS is a JSON list of {label, email, password}; anything else falls back to the defaults. */
export function parseDemoAccounts(raw: string | undefined): DemoAccount[] {
  if (!raw) return DEFAULT_DEMO_ACCOUNTS;
  try {
    const parsed = z.array(demoAccount).safeParse(JSON.parse(raw));
    return parsed.success ? parsed.data : DEFAULT_DEMO_ACCOUNTS;
  } catch {
    return DEFAULT_DEMO_ACCOUNTS;
  }
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
