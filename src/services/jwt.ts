// Reads the claims of a session token on the client (docs/product.md#workspace-entities). No signature check here: the
// server verifies every call; the client only needs `sub` and `exp` for the footer and the expiry timer.
import { jwtPayload, type JwtPayload } from '../schemas/auth';

function base64UrlDecode(part: string): string {
  const base64 = part.replace(/-/g, '+').replace(/_/g, '/');
  const padded = base64 + '='.repeat((4 - (base64.length % 4)) % 4);
  const binary = atob(padded);
  const bytes = Uint8Array.from(binary, (c) => c.charCodeAt(0));
  return new TextDecoder().decode(bytes);
}

/** The payload of a three-part token with string `sub` and numeric `exp`, or null for anything else. */
export function decodeJwt(token: string): JwtPayload | null {
  const parts = token.split('.');
  if (parts.length !== 3 || parts.some((p) => p === '')) return null;
  try {
    const parsed = jwtPayload.safeParse(JSON.parse(base64UrlDecode(parts[1])));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}
