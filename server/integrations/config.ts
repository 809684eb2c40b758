// The caps on what a person keeps for other clients (README 'Limits'), each with its environment variable.

export interface IntegrationsConfig {
  /** PANELS_PER_USER: saved panels one person may keep. */
  panelsPerUser: number;
  /** API_TOKENS_PER_USER: API tokens one person may hold at once. */
  apiTokensPerUser: number;
  /** API_TOKEN_RATE_LIMIT: requests per minute one person's API tokens may make, together. */
  apiTokenRateLimit: number;
}

const num = (v: string | undefined, d: number) => {
  const n = Number(v);
  return v !== undefined && v !== '' && Number.isFinite(n) ? n : d;
};

export const integrationsConfigFrom = (env: NodeJS.ProcessEnv): IntegrationsConfig => ({
  panelsPerUser: Math.max(1, num(env.PANELS_PER_USER, 100)),
  apiTokensPerUser: Math.max(1, num(env.API_TOKENS_PER_USER, 20)),
  apiTokenRateLimit: Math.max(1, num(env.API_TOKEN_RATE_LIMIT, 60)),
});
