// VITE_DEMO_ACCOUNTS, checked with its zod schema when the app is built (vite.config.ts defines the result as
// __AGORA_DEMO_ACCOUNTS__): the value is fixed at build time, so checking it in the browser would only add zod to
// the JavaScript that shows the sign-in screen.
import { demoAccountList, type DemoAccount } from '../schemas/demoAccounts.ts';

export const DEFAULT_DEMO_ACCOUNTS: DemoAccount[] = [
  { label: 'Demo researcher', email: 'demo@agora.local', password: 'demo1234' },
  { label: 'Demo reviewer', email: 'reviewer@agora.local', password: 'demo1234' },
];

/**
 * VITE_DEMO_ACCOUNTS is a JSON list of {label, email, password}; anything else falls back to the defaults. A
 * production build offers no demo account unless the operator lists some: a newcomer's sign-up form must not
 * suggest shared credentials on a real server.
 */
export function parseDemoAccounts(raw: string | undefined, mode = 'development'): DemoAccount[] {
  const fallback = mode === 'production' ? [] : DEFAULT_DEMO_ACCOUNTS;
  if (!raw) return fallback;
  let json: unknown;
  try {
    json = JSON.parse(raw);
  } catch {
    return fallback;
  }
  const parsed = demoAccountList.safeParse(json);
  return parsed.success ? parsed.data : fallback;
}
