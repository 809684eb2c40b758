import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { required } from '../server/postgresCluster';

// CI must not go green with the PostgreSQL and nginx tests skipped: .ci/run requires both, and the tests that
// would skip fail instead when their tool is required and missing.

const ROOT = path.resolve(import.meta.dirname, '../..');

describe('required tools', () => {
  const saved = { ...process.env };
  afterEach(() => {
    process.env = { ...saved };
  });

  it('.ci/run requires PostgreSQL and nginx', () => {
    const script = readFileSync(path.join(ROOT, '.ci/run'), 'utf8');
    expect(script).toMatch(/^export REQUIRE_POSTGRES=1 REQUIRE_NGINX=1$/m);
  });

  it('a missing tool is a reason to skip, unless it is required', () => {
    delete process.env.REQUIRE_NGINX;
    expect(required('nginx is not installed', 'REQUIRE_NGINX')).toBe('nginx is not installed');
    process.env.REQUIRE_NGINX = '1';
    expect(() => required('nginx is not installed', 'REQUIRE_NGINX')).toThrow(
      'REQUIRE_NGINX=1, but nginx is not installed',
    );
    expect(required(null, 'REQUIRE_NGINX')).toBeNull();
  });
});
