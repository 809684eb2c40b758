import { describe, expect, it } from 'vitest';
import { createTokenStorage } from '../../src/services/tokenStorage';
import { readStoredUser } from '../../src/services/storedUser';
import { decodeJwt } from '../../src/services/jwt';
import { TOKEN_STORAGE_KEYS, USER_STORAGE_KEYS } from '../../src/schemas/constants';
import { makeToken } from '../support/tokens';

class MemoryStore {
  map = new Map<string, string>();
  getItem = (k: string) => this.map.get(k) ?? null;
  setItem = (k: string, v: string) => void this.map.set(k, v);
  removeItem = (k: string) => void this.map.delete(k);
}

describe('token storage', () => {
  it('writes the token and user under every key in both stores, and reads them back', () => {
    const local = new MemoryStore();
    const session = new MemoryStore();
    const storage = createTokenStorage([local, session]);
    storage.save('tok', { email: 'a@b.c' });
    for (const store of [local, session]) {
      for (const k of TOKEN_STORAGE_KEYS) expect(store.getItem(k)).toBe('tok');
      for (const k of USER_STORAGE_KEYS) expect(JSON.parse(store.getItem(k)!)).toEqual({ email: 'a@b.c' });
    }
    expect(storage.readToken()).toBe('tok');
    expect(readStoredUser(storage)).toEqual({ email: 'a@b.c' });
  });

  it('finds a token kept under any key in either store', () => {
    const session = new MemoryStore();
    session.setItem('authToken', 'legacy');
    expect(createTokenStorage([new MemoryStore(), session]).readToken()).toBe('legacy');
  });

  it('clear removes every key from both stores', () => {
    const local = new MemoryStore();
    const session = new MemoryStore();
    const storage = createTokenStorage([local, session]);
    storage.save('tok', { email: 'a@b.c' });
    local.setItem('unrelated', 'kept');
    storage.clear();
    expect([...local.map.keys()]).toEqual(['unrelated']);
    expect(session.map.size).toBe(0);
    expect(storage.readToken()).toBeNull();
    expect(readStoredUser(storage)).toBeNull();
  });

  it('ignores a stored user that is not valid JSON or not a user', () => {
    const local = new MemoryStore();
    local.setItem('user', '{nope');
    local.setItem('currentUser', JSON.stringify({ name: 'no email' }));
    expect(readStoredUser(createTokenStorage([local]))).toBeNull();
  });
});

describe('jwt decode', () => {
  it('reads sub and exp from a three-part base64url token', () => {
    expect(decodeJwt(makeToken({ sub: 'u-1', exp: 2_000_000_000, name: 'Zoë ✓' }))).toMatchObject({
      sub: 'u-1',
      exp: 2_000_000_000,
    });
  });

  it('rejects anything that is not three parts with sub and exp', () => {
    expect(decodeJwt('a.b')).toBeNull();
    expect(decodeJwt('a.b.c.d')).toBeNull();
    expect(decodeJwt('..')).toBeNull();
    expect(decodeJwt('x.%%%.y')).toBeNull();
    const noExp = `${Buffer.from('{}').toString('base64url')}.${Buffer.from('{"sub":"u"}').toString('base64url')}.s`;
    expect(decodeJwt(noExp)).toBeNull();
  });
});
