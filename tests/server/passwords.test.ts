import { describe, expect, it } from 'vitest';
import { DUMMY_HASH, hashPassword, verifyPassword } from '../../server/auth/passwords';

// An unknown email is checked against a stand-in hash with the stored hashes' own scrypt parameters and key length,
// so a miss costs one scrypt exactly as a hit does; the stand-in is made without running scrypt at start.
describe('passwords', () => {
  it('hashes, verifies, and refuses a wrong password', async () => {
    const stored = await hashPassword('correct-horse-42');
    expect(await verifyPassword('correct-horse-42', stored)).toBe(true);
    expect(await verifyPassword('wrong', stored)).toBe(false);
  });

  it("checks an unknown email against a stand-in with a real hash's shape, which nothing matches", async () => {
    const shape = (h: string) => {
      const [tag, n, r, p, salt, key] = h.split('$');
      return [tag, n, r, p, Buffer.from(salt!, 'base64').length, Buffer.from(key!, 'base64').length];
    };
    expect(shape(DUMMY_HASH)).toEqual(shape(await hashPassword('anything')));
    expect(await verifyPassword('not-a-real-password', DUMMY_HASH)).toBe(false);
    expect(await verifyPassword('', DUMMY_HASH)).toBe(false);
  });
});
