// The user saved beside the token (tokenStorage.ts), checked with its schema. Apart from tokenStorage so that the
// schema and zod load after sign-in, not with the sign-in screen; nothing before sign-in reads it.
import { user as userSchema, type User } from '../schemas/auth';
import type { TokenStorage } from './tokenStorage';

/** The stored user, or null when none is stored or what is stored is not a user. */
export function readStoredUser(storage: Pick<TokenStorage, 'readUserText'>): User | null {
  const raw = storage.readUserText();
  if (!raw) return null;
  try {
    const parsed = userSchema.safeParse(JSON.parse(raw));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}
