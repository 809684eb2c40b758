// Unsigned test tokens with the claims the client reads (the client never checks signatures).
const b64url = (s: string) => Buffer.from(s).toString('base64url');

export function makeToken(claims: { sub?: string; exp: number } & Record<string, unknown>) {
  return `${b64url(JSON.stringify({ alg: 'HS256', typ: 'JWT' }))}.${b64url(JSON.stringify({ sub: 'user-0123456789abcdef', ...claims }))}.signature`;
}

/** A token expiring `ms` after `now` (exp is whole seconds). */
export const tokenExpiringIn = (now: number, ms: number, sub?: string) =>
  makeToken({ exp: Math.floor((now + ms) / 1000), ...(sub ? { sub } : {}) });
