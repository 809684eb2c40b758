

// Keys and comparisons for frames that carry no id: a frame's key is `type:length:hash` of its JSON, so a replayed
// frame (the same stored bytes) gets the same key and changes nothing.

const encoder = new TextEncoder();
let bytes = new Uint8Array(4096);
let words = new Uint32Array(bytes.buffer);

/**
 * cyrb53, a fast 53-bit string hash (public domain), fed the string's UTF-8 bytes four at a time: native
 * encodeInto and 32-bit words hash a hybrid run's 1.4 KB ACL frames five times faster than charCodeAt did (the
 * per-character loop was a tenth of the hybrid ingest; npm run bench ingest). UTF-8 tells every well-formed string
 * apart; the length goes in too, so a tail of zero bytes is not the same as a shorter string.
 */
export function hash53(str: string): number {
  // UTF-8 is at most three bytes per UTF-16 unit; eight zeroed spare bytes let the last pair of words be read whole.
  const need = str.length * 3 + 8;
  if (need > bytes.length) {
    bytes = new Uint8Array(Math.max(need, bytes.length * 2));
    words = new Uint32Array(bytes.buffer);
  }
  const { written } = encoder.encodeInto(str, bytes);
  bytes.fill(0, written, written + 8);
  let h1 = 0xdeadbeef ^ written;
  let h2 = 0x41c6ce57 ^ str.length;
  const n = (written + 3) >>> 2;
  for (let i = 0; i < n; i += 2) {
    h1 = Math.imul(h1 ^ words[i]!, 2654435761);
    h2 = Math.imul(h2 ^ words[i + 1]!, 1597334677);
  }
  h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507);
  h1 ^= Math.imul(h2 ^ (h2 >>> 13), 3266489909);
  h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507);
  h2 ^= Math.imul(h1 ^ (h1 >>> 13), 3266489909);
  return 4294967296 * (2097151 & h2) + (h1 >>> 0);
}

/**
 * The stable key of a frame that has no id of its own: the same for a byte-identical replay. (Native
 * JSON.stringify plus one pass of the hash measured faster than hashing the object by walking it.)
 */
export function frameKey(frame: { type: string }): string {
  const json = JSON.stringify(frame);
  // Decimal: a 53-bit number in base 36 took longer to write than the frame took to hash.
  return `${frame.type}:${json.length}:${hash53(json)}`;
}

/** Structural equality of JSON-like values (frames after parsing). */
export function deepEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  if (Array.isArray(a)) {
    const bb = b as unknown[];
    if (a.length !== bb.length) return false;
    for (let i = 0; i < a.length; i++) if (!deepEqual(a[i], bb[i])) return false;
    return true;
  }
  const ka = Object.keys(a);
  const kb = Object.keys(b);
  if (ka.length !== kb.length) return false;
  for (const k of ka) {
    if (!Object.prototype.hasOwnProperty.call(b, k)) return false;
    if (!deepEqual((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k])) return false;
  }
  return true;
}

export const stringify = (v: unknown) => (typeof v === 'string' ? v : v === undefined ? '' : JSON.stringify(v));

/** An own entry of a record keyed by ids from the wire ('constructor' is an id like any other). */
export const own = <T,>(rec: Readonly<Record<string, T>>, key: string): T | undefined => (Object.prototype.hasOwnProperty.call(rec, key) ? rec[key] : undefined);

export const pct = (x: number) => `${Math.round(x * 100)}%`;
