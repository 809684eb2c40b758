import { randomBytes } from 'node:crypto';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { jwtVerify, SignJWT } from 'jose';

export interface TokenService {
  issue(userId: string): Promise<string>;
  /** The user id, or null for a missing, tampered, expired or non-HS256 token. */
  verify(token: string | undefined | null): Promise<string | null>;
}

/** JWT_SECRET when given; otherwise a random secret persisted in the data directory so restarts keep sessions. */
export async function resolveSecret(
  configured: string | undefined,
  dataDir: string,
  persist: boolean,
): Promise<Uint8Array> {
  if (configured) return new TextEncoder().encode(configured);
  if (!persist) return randomBytes(32);
  const file = path.join(dataDir, 'jwt-secret');
  try {
    return Buffer.from((await readFile(file, 'utf8')).trim(), 'base64');
  } catch {
    const secret = randomBytes(32);
    await mkdir(dataDir, { recursive: true });
    await writeFile(file, secret.toString('base64'), { mode: 0o600 });
    return secret;
  }
}

export function createTokenService(secret: Uint8Array, ttlMinutes: number): TokenService {
  return {
    issue: (userId) =>
      new SignJWT({})
        .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
        .setSubject(userId)
        .setIssuedAt()
        .setExpirationTime(`${ttlMinutes}m`)
        .sign(secret),
    async verify(token) {
      if (!token) return null;
      try {
        // Pinning the algorithm is what rejects `alg: none` and any asymmetric-key confusion.
        const { payload } = await jwtVerify(token, secret, { algorithms: ['HS256'] });
        return typeof payload.sub === 'string' && payload.sub ? payload.sub : null;
      } catch {
        return null;
      }
    },
  };
}
