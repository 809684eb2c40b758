// VITE_DEMO_ACCOUNTS, checked with its zod schema when the app is built (vite.config.ts defines the result as
// __AGORA_DEMO_ACCOUNTS__): the value is fixed at build time, so checking it in the browser would only add zod to
// the JavaScript that shows the sign-in screen (issue 19).
import { demoAccountList, type DemoAccount } from '../schemas/demoAccounts.ts';

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
