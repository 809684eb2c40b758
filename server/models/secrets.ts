import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';

// API keys at rest (docs/models.md): AES-256-GCM with a 32-byte key from SECRETS_KEY (any string, hashed to 32
// bytes) or, unset, one generated once into DATA_DIR/secrets-key (mode 0600), as the JWT secret is. A sealed value
// is 'v1.<iv>.<tag>.<ciphertext>' in base64url; the connection id is bound in as associated data, so a sealed key
// copied onto another row does not open.

export interface SecretBox {
  seal(plain: string, boundTo: string): string;
  /** Throws when the value was not sealed with this key for this row. */
  open(sealed: string, boundTo: string): string;
}

export async function resolveSecretsKey(
  configured: string | undefined,
  dataDir: string,
  persist: boolean,
): Promise<Buffer> {
  if (configured) return createHash('sha256').update(configured, 'utf8').digest();
  if (!persist) return randomBytes(32);
  const file = path.join(dataDir, 'secrets-key');
  try {
    const key = Buffer.from((await readFile(file, 'utf8')).trim(), 'base64');
    if (key.length === 32) return key;
    throw new Error(`${file} does not hold a 32-byte key`);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'ENOENT') throw e;
    const key = randomBytes(32);
    await mkdir(dataDir, { recursive: true });
    await writeFile(file, key.toString('base64'), { mode: 0o600, flag: 'wx' }).catch(async (err) => {
      // Another process wrote it first: use theirs.
      if ((err as NodeJS.ErrnoException).code === 'EEXIST') return;
      throw err;
    });
    return Buffer.from((await readFile(file, 'utf8')).trim(), 'base64');
  }
}

export function createSecretBox(key: Buffer): SecretBox {
  return {
    seal(plain, boundTo) {
      const iv = randomBytes(12);
      const cipher = createCipheriv('aes-256-gcm', key, iv);
      cipher.setAAD(Buffer.from(boundTo, 'utf8'));
      const data = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
      return ['v1', iv, cipher.getAuthTag(), data]
        .map((p) => (typeof p === 'string' ? p : p.toString('base64url')))
        .join('.');
    },
    open(sealed, boundTo) {
      const [v, iv, tag, data] = sealed.split('.');
      if (v !== 'v1' || !iv || !tag || data === undefined) throw new Error('Not a sealed secret');
      const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(iv, 'base64url'));
      decipher.setAAD(Buffer.from(boundTo, 'utf8'));
      decipher.setAuthTag(Buffer.from(tag, 'base64url'));
      return Buffer.concat([decipher.update(Buffer.from(data, 'base64url')), decipher.final()]).toString('utf8');
    },
  };
}

/** '••••1234': enough for a person to tell two keys apart, too little to use. Short keys show only the dots. */
export const keyHint = (key: string) => (key.length >= 12 ? `••••${key.slice(-4)}` : '••••');
