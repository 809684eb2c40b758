import { z } from 'zod';
import { text } from './common';

export const credentials = z
  .object({
    email: text().trim().min(3).max(254).regex(/@/, 'email must contain @'),
    password: text().min(6).max(200),
  })
  .meta({ examples: [{ email: 'ada@example.org', password: 'correct horse battery' }] });
export type Credentials = z.infer<typeof credentials>;

/** 'operator' manages what every user shares (README 'Operator'); absent from servers that have no roles. */
export const userRole = z.enum(['operator', 'user']);
export type UserRole = z.infer<typeof userRole>;

export const user = z.looseObject({
  id: z.string().optional(),
  email: z.string(),
  created_at: z.string().optional(),
  role: userRole.optional(),
  /** What others see in rooms (rooms.ts `displayName`); the server answers the default when none was chosen. */
  display_name: z.string().optional(),
});

/** The 403 detail of an operator-only action; `what` is what was refused ('delete model files'). */
export const OPERATOR_ONLY = (what: string) =>
  `Only the server's operator may ${what}; ask them, or use a connection of your own.`;

/** POST /auth/socket-ticket: a short-lived, single-use ticket to open one socket with `?ticket=`. */
export const socketTicket = z.object({ ticket: z.string(), expires_in: z.number().int().positive() });
export type SocketTicket = z.infer<typeof socketTicket>;
export type User = z.infer<typeof user>;

/** Login and register answer the same shape. access_token is optional here so the SPA can say
 * 'No access token received from server' instead of a parse failure. */
export const loginResponse = z.looseObject({
  access_token: z.string().optional(),
  token_type: z.string().optional(),
  user: user.optional(),
});
export type LoginResponse = z.infer<typeof loginResponse>;

export const refreshResponse = z.object({ access_token: z.string(), token_type: z.string().default('bearer') });

/** The decoded payload of our HS256 session token. */
export const jwtPayload = z.looseObject({ sub: z.string(), exp: z.number(), iat: z.number().optional() });
export type JwtPayload = z.infer<typeof jwtPayload>;
