// Where the signed-in login lives between page loads (docs/product.md#workspace-entities 'Session token'): the token
// and the user under every key of TOKEN_STORAGE_KEYS / USER_STORAGE_KEYS, in both localStorage and sessionStorage, so
// older readers of any key keep working. Clearing removes all of them.
import { TOKEN_STORAGE_KEYS, USER_STORAGE_KEYS } from '../schemas/constants';
import type { User } from '../schemas/auth';

type KeyValueStore = Pick<Storage, 'getItem' | 'setItem' | 'removeItem'>;

function browserStores(): KeyValueStore[] {
  const stores: KeyValueStore[] = [];
  // Storage access throws in some privacy modes; a missing store is simply skipped.
  try {
    if (typeof localStorage !== 'undefined') stores.push(localStorage);
  } catch {}
  try {
    if (typeof sessionStorage !== 'undefined') stores.push(sessionStorage);
  } catch {}
  return stores;
}

export function createTokenStorage(stores: KeyValueStore[] = browserStores()) {
  const firstValue = (keys: readonly string[]) => {
    for (const store of stores) {
      for (const key of keys) {
        const value = store.getItem(key);
        if (value) return value;
      }
    }
    return null;
  };

  return {
    readToken: (): string | null => firstValue(TOKEN_STORAGE_KEYS),

    /** The stored user as written, unchecked: storedUser.ts parses it (with zod, loaded after sign-in). */
    readUserText: (): string | null => firstValue(USER_STORAGE_KEYS),

    save(token: string, user: User | null) {
      for (const store of stores) {
        for (const key of TOKEN_STORAGE_KEYS) store.setItem(key, token);
        for (const key of USER_STORAGE_KEYS) {
          if (user) store.setItem(key, JSON.stringify(user));
          else store.removeItem(key);
        }
      }
    },

    clear() {
      for (const store of stores) {
        for (const key of [...TOKEN_STORAGE_KEYS, ...USER_STORAGE_KEYS]) store.removeItem(key);
      }
    },
  };
}

export type TokenStorage = ReturnType<typeof createTokenStorage>;
