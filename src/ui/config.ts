// What the views show about where the app runs: development tools, API and socket addresses, demo accounts.
// Read once at the edge (src/services/uiConfig.ts); tests pass their own.
import type { DemoAccount } from '../schemas/demoAccounts';

export type { DemoAccount };

export interface UiConfig {
  /** Development mode: shows Debug, Test, Test Backend and the login debug toggle. */
  isDev: boolean;
  environment: string;
  apiUrl: string;
  socketUrl: string;
  host: string;
  demoAccounts: DemoAccount[];
}
