// Small persistent (immutable, structurally shared) collections for the feed model. A discussion may run to
// thousands of frames; copying a whole list or a record per frame would make ingest quadratic, so:
//
// - `Vec<T>`: a list stored in chunks of 64. Replacing one element copies one chunk and the chunk list (≈ n/64
//   pointers), never the whole list; appending to the newest version writes past its end in place (no version can
//   see past its own length), and copies only when another version already appended there. Every version stays
//   valid and unchanged.
// - `KeyedVec<T>`: a Vec of values plus a parallel Vec of their keys, and an index key → position. The index is a
//   Map shared between versions and only ever added to; a lookup is trusted only when the key stored at that
//   position in *this* version is the key asked for, so entries written by a later version or by a sibling
//   version (two different frames applied to the same feed) are simply not seen. When a key is about to be
//   written over an entry another version made, the Map is copied first. Each lineage starting from the empty
//   collection gets its own Map on its first append, so different discussions never share one.
//
// Pure from the outside: no function here changes anything a caller can observe through an earlier version.

const SHIFT = 6;
const CHUNK = 1 << SHIFT;
const MASK = CHUNK - 1;

export interface Vec<T> {
  readonly chunks: readonly (readonly T[])[];
  readonly length: number;
}

const EMPTY_VEC: Vec<never> = Object.freeze({ chunks: Object.freeze([]) as readonly never[][], length: 0 });
export const emptyVec = <T>(): Vec<T> => EMPTY_VEC;

export function vecGet<T>(v: Vec<T>, i: number): T | undefined {
  if (i < 0 || i >= v.length) return undefined;
  return v.chunks[i >> SHIFT][i & MASK];
}

export function vecPush<T>(v: Vec<T>, x: T): Vec<T> {
  const n = v.length;
  const offset = n & MASK;
  const c = n >> SHIFT;
  // Append in place when nobody wrote past this version's end yet: an earlier version reads only its first
  // `length` elements, so it cannot see the new one. A second append to the same version finds the slot taken
  // and copies. Most appends then copy nothing (npm run bench ingest: a copy per append was much of the GC).
  if (n > 0) {
    const chunks = v.chunks as T[][];
    if (offset !== 0 && chunks[c]!.length === offset) {
      chunks[c]!.push(x);
      return { chunks, length: n + 1 };
    }
    if (offset === 0 && chunks.length === c) {
      chunks.push([x]);
      return { chunks, length: n + 1 };
    }
  }
  const chunks = v.chunks.slice(0, c + (offset === 0 ? 0 : 1));
  if (offset === 0) chunks.push([x]);
  else chunks[c] = [...v.chunks[c]!.slice(0, offset), x];
  return { chunks, length: n + 1 };
}

export function vecSet<T>(v: Vec<T>, i: number, x: T): Vec<T> {
  if (i < 0 || i >= v.length) throw new RangeError(`index ${i} outside 0..${v.length - 1}`);
  const c = i >> SHIFT;
  if (v.chunks[c][i & MASK] === x) return v;
  // This version's part only: what a later version appended in place is not ours to carry.
  const chunk = v.chunks[c].slice(0, c === (v.length - 1) >> SHIFT ? ((v.length - 1) & MASK) + 1 : CHUNK);
  chunk[i & MASK] = x;
  const chunks = v.chunks.slice(0, ((v.length - 1) >> SHIFT) + 1);
  chunks[c] = chunk;
  return { chunks, length: v.length };
}

/** The last element that `test` accepts, newest first, or undefined: no copy of the list (vecToArray makes one per version). */
export function vecFindLast<T>(v: Vec<T>, test: (x: T) => boolean): T | undefined {
  // Bounded by this version's length: a chunk may hold elements a later version appended in place.
  for (let i = v.length - 1; i >= 0; ) {
    const chunk = v.chunks[i >> SHIFT]!;
    for (let j = i & MASK; j >= 0; j--, i--) if (test(chunk[j]!)) return chunk[j];
  }
  return undefined;
}

const arrays = new WeakMap<Vec<unknown>, readonly unknown[]>();
/** The elements as one array; the same array for the same version (memo-friendly), frozen. */
export function vecToArray<T>(v: Vec<T>): readonly T[] {
  let out = arrays.get(v) as readonly T[] | undefined;
  if (!out) {
    const flat: T[] = [];
    for (let i = 0; i < v.length; i++) flat.push(v.chunks[i >> SHIFT]![i & MASK]!);
    out = Object.freeze(flat);
    arrays.set(v, out);
  }
  return out;
}

export interface KeyedVec<T> {
  readonly keys: Vec<string>;
  readonly values: Vec<T>;
  /** Shared between versions, append-only; read only through `kvIndexOf`. Null until the first append. */
  readonly index: Map<string, number> | null;
}

const EMPTY_KV: KeyedVec<never> = Object.freeze({ keys: EMPTY_VEC, values: EMPTY_VEC, index: null });
export const emptyKeyedVec = <T>(): KeyedVec<T> => EMPTY_KV;

/** Position of `key` in this version, or -1. */
export function kvIndexOf(kv: KeyedVec<unknown>, key: string): number {
  const pos = kv.index?.get(key);
  return pos !== undefined && pos < kv.keys.length && vecGet(kv.keys, pos) === key ? pos : -1;
}

export function kvGet<T>(kv: KeyedVec<T>, key: string): T | undefined {
  const pos = kvIndexOf(kv, key);
  return pos < 0 ? undefined : vecGet(kv.values, pos);
}

/** Appends a value under a key this version does not hold yet (the caller checks with kvIndexOf). */
export function kvAppend<T>(kv: KeyedVec<T>, key: string, value: T): KeyedVec<T> {
  const pos = kv.keys.length;
  let index = kv.index;
  if (index === null) index = new Map();
  else if (index.has(key)) index = new Map(index); // another version wrote this key: do not move it under its feet
  index.set(key, pos);
  return { keys: vecPush(kv.keys, key), values: vecPush(kv.values, value), index };
}

export function kvSetAt<T>(kv: KeyedVec<T>, pos: number, value: T): KeyedVec<T> {
  const values = vecSet(kv.values, pos, value);
  return values === kv.values ? kv : { keys: kv.keys, values, index: kv.index };
}

export const kvSize = (kv: KeyedVec<unknown>) => kv.keys.length;
export const kvValues = <T>(kv: KeyedVec<T>): readonly T[] => vecToArray(kv.values);
export const kvKeys = (kv: KeyedVec<unknown>): readonly string[] => vecToArray(kv.keys);
