// Keys and comparisons for frames that carry no id: a frame's key is its type, the size of its data and a 53-bit
// hash of that data, so a replayed frame (the same stored data) gets the same key and changes nothing.

// The hash (cyrb53's mixing, public domain) runs over the frame's values as it walks them, in the order
// JSON.stringify would write them, each tagged with its kind and strings with their length, so no two different
// JSON values feed it the same sequence. Serialising the frame first and hashing the text was most of the cost of a
// keyed frame, and keyed frames are most of the hybrid stream (npm run bench ingest). Two lanes of state for the walk:
let h1 = 0;
let h2 = 0;
let size = 0;
const float = new Float64Array(1);
const floatWords = new Uint32Array(float.buffer);

function mix(w: number) {
  h1 = Math.imul(h1 ^ w, 2654435761);
  h2 = Math.imul(h2 ^ w, 1597334677);
}

/** A string, two UTF-16 units a step after its length. */
function mixString(s: string) {
  const len = s.length;
  let a = h1 ^ (0x73 + (len << 8));
  let b = h2 ^ len;
  const pairs = len & ~1;
  for (let i = 0; i < pairs; i += 2) {
    const w = s.charCodeAt(i) | (s.charCodeAt(i + 1) << 16);
    a = Math.imul(a ^ w, 2654435761);
    b = Math.imul(b ^ w, 1597334677);
  }
  if (pairs < len) {
    const w = s.charCodeAt(pairs);
    a = Math.imul(a ^ w, 2654435761);
    b = Math.imul(b ^ w, 1597334677);
  }
  h1 = a;
  h2 = b;
  size += len;
}

/** A JSON value as JSON.stringify sees it: an object's undefined and function members are left out. */
function mixValue(v: unknown): void {
  switch (typeof v) {
    case 'string':
      return mixString(v);
    case 'number':
      float[0] = v;
      mix(0x6e);
      mix(floatWords[0]!);
      mix(floatWords[1]!);
      size += 8;
      return;
    case 'boolean':
      mix(v ? 0x74 : 0x66);
      size += 1;
      return;
    case 'object': {
      if (v === null) return mix(0x6c);
      if (Array.isArray(v)) {
        mix(0x5b + (v.length << 8));
        for (const x of v) mixValue(x === undefined || typeof x === 'function' ? null : x);
        return mix(0x5d);
      }
      mix(0x7b);
      const o = v as Record<string, unknown>;
      for (const k in o) {
        const x = o[k];
        if (x === undefined || typeof x === 'function') continue;
        mixString(k);
        mixValue(x);
      }
      return mix(0x7d);
    }
    default:
      return;
  }
}

/** The 53-bit hash of a JSON value; `size` then tells how much went in (frameKey reads both). */
function hashJson(value: unknown): number {
  h1 = 0xdeadbeef;
  h2 = 0x41c6ce57;
  size = 0;
  mixValue(value);
  h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507);
  h1 ^= Math.imul(h2 ^ (h2 >>> 13), 3266489909);
  h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507);
  h2 ^= Math.imul(h1 ^ (h1 >>> 13), 3266489909);
  return 4294967296 * (2097151 & h2) + (h1 >>> 0);
}

/** The stable key of a frame that has no id of its own: the same for a replay of the same data. */
export function frameKey(frame: { type: string }): string {
  const hash = hashJson(frame);
  // Decimal: a 53-bit number in base 36 took longer to write than the frame took to hash.
  return `${frame.type}:${size}:${hash}`;
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
    if (!Object.hasOwn(b, k)) return false;
    if (!deepEqual((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k])) return false;
  }
  return true;
}

export const stringify = (v: unknown) => (typeof v === 'string' ? v : v === undefined ? '' : JSON.stringify(v));

/** An own entry of a record keyed by ids from the wire ('constructor' is an id like any other). */
export const own = <T>(rec: Readonly<Record<string, T>>, key: string): T | undefined =>
  Object.hasOwn(rec, key) ? rec[key] : undefined;

export const pct = (x: number) => `${Math.round(x * 100)}%`;
