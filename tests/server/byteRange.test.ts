import { describe, expect, it } from 'vitest';
import { byteRange } from '../../server/http/sendFile';

describe('byte ranges for <audio> seeking', () => {
  it('reads a-b, a- and -n against the file size', () => {
    expect(byteRange('bytes=0-9', 100)).toEqual({ start: 0, end: 9 });
    expect(byteRange('bytes=90-', 100)).toEqual({ start: 90, end: 99 });
    expect(byteRange('bytes=-10', 100)).toEqual({ start: 90, end: 99 });
    expect(byteRange('bytes=50-500', 100)).toEqual({ start: 50, end: 99 });
  });

  it('serves the whole file for no range or several, and refuses one past the end', () => {
    expect(byteRange(undefined, 100)).toBeNull();
    expect(byteRange('bytes=-', 100)).toBeNull();
    expect(byteRange('bytes=0-1,5-6', 100)).toBeNull();
    expect(byteRange('bytes=100-', 100)).toBe('unsatisfiable');
    expect(byteRange('bytes=9-3', 100)).toBe('unsatisfiable');
  });
});
