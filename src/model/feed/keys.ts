

// Keys and comparisons for frames that carry no id: a frame's key is `type:length:hash` of its JSON, so a replayed
// frame (the same stored bytes) gets the same key and changes nothing.

/**
 * cyrb53, a fast 53-bit string hash (public domain), fed two UTF-16 code units per step: a hybrid run's 1.4 KB ACL
 * frames made the per-character loop a tenth of its ingest (npm run bench ingest).
 */
export function hash53(str: string): number {
  let h1 = 0xdeadbeef;
  let h2 = 0x41c6ce57;
  const pairs = str.length & ~1;
  for (let i = 0; i < pairs; i += 2) {
    const w = str.charCodeAt(i) | (str.charCodeAt(i + 1) << 16);
    h1 = Math.imul(h1 ^ w, 2654435761);
    h2 = Math.imul(h2 ^ w, 1597334677);
  }
  if (pairs < str.length) {
    const ch = str.charCodeAt(pairs);
    h1 = Math.imul(h1 ^ ch, 2654435761);
    h2 = Math.imul(h2 ^ ch, 1597334677);
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
  return `${frame.type}:${json.length.toString(36)}:${hash53(json).toString(36)}`;
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
