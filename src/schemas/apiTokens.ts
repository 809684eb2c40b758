import { z } from 'zod';
import { text } from './common';

// API tokens (docs/integrations.md): what another client (an MCP client, an OpenAI-compatible client, a script)
// sends as `Authorization: Bearer agora_…`. Created, listed and revoked from the app; the token itself is shown
// once and stored only as its hash. Names fixed by the issue: POST/GET /api-tokens, DELETE /api-tokens/{id}.

/** `read`: list panels and read discussions; `run`: ask a panel (start a discussion). */
export const API_TOKEN_SCOPES = ['read', 'run'] as const;
export const apiTokenScope = z.enum(API_TOKEN_SCOPES);
export type ApiTokenScope = z.infer<typeof apiTokenScope>;
/** Every API token starts so: a leaked one is recognisable (secret scanners), and it is never a session token. */
export const API_TOKEN_PREFIX = 'agora_';
export const API_TOKEN_NAME_MAX = 80;

export const apiTokenCreate = z.object({
  name: text().trim().min(1, 'Name is required').max(API_TOKEN_NAME_MAX),
  scopes: z
    .array(apiTokenScope)
    .min(1, 'Choose read, run or both')
    .max(API_TOKEN_SCOPES.length)
    .transform((s) => [...new Set(s)]),
  expires_at: z.iso
    .datetime({ offset: true })
    .refine((v) => Date.parse(v) > Date.now(), 'The expiry must be in the future')
    .nullish(),
});
export type ApiTokenCreate = z.infer<typeof apiTokenCreate>;

/** A token as it is listed: never the token, only its first characters. */
export const apiToken = z.object({
  id: z.string(),
  name: z.string(),
  scopes: z.array(apiTokenScope),
  /** 'agora_Ab3d…': enough to tell tokens apart. */
  hint: z.string(),
  created_at: z.string(),
  expires_at: z.string().nullable(),
  last_used_at: z.string().nullable(),
});
export type ApiToken = z.infer<typeof apiToken>;
export const apiTokenList = z.array(apiToken);
/** What the create answers, once: the token itself. */
export const apiTokenCreated = apiToken.extend({ token: z.string() });
export type ApiTokenCreated = z.infer<typeof apiTokenCreated>;
