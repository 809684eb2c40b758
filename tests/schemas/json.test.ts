// The one place text becomes JSON (src/schemas/frames.ts): it never throws, and says what it found.
import { describe, expect, it } from 'vitest';
import { jsonObject, readJson, typeNamedIn } from '../../src/schemas/frames';

describe('reading JSON at the edge', () => {
  it('readJson gives the value, or JSON.parse’s own words', () => {
    expect(readJson('{"a":1}')).toEqual({ ok: true, value: { a: 1 } });
    const bad = readJson('{a:1}');
    expect(bad.ok).toBe(false);
    expect(!bad.ok && bad.error).toMatch(/JSON/);
  });

  it('jsonObject takes objects only', () => {
    expect(jsonObject.safeParse({ type: 'ping' }).success).toBe(true);
    for (const v of [[], null, 'x', 3]) expect(jsonObject.safeParse(v).success).toBe(false);
  });

  it('typeNamedIn: the type, null when none is named, undefined when the text is not JSON', () => {
    expect(typeNamedIn('{"type":"ping","x":1}')).toBe('ping');
    expect(typeNamedIn('{"type":3}')).toBeNull();
    expect(typeNamedIn('[1,2]')).toBeNull();
    expect(typeNamedIn('not json')).toBeUndefined();
  });
});
