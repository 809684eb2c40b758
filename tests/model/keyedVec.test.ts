// The persistent lists under the feed (src/model/keyedVec.ts): every version keeps its contents whatever is done
// to the others — appends in place past a version's end included, from any version, in any order.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  emptyKeyedVec,
  emptyVec,
  kvAppend,
  kvIndexOf,
  kvSetAt,
  kvValues,
  vecFindLast,
  vecGet,
  vecPush,
  vecSet,
  vecToArray,
  type KeyedVec,
  type Vec,
} from '../../src/model/keyedVec';

const contents = <T>(v: Vec<T>) => Array.from({ length: v.length }, (_, i) => vecGet(v, i));

describe('Vec', () => {
  it('every version reads what it held when made, across pushes and sets on any version', () => {
    const op = fc.oneof(
      fc.record({ kind: fc.constant('push' as const), from: fc.nat(), value: fc.integer() }),
      fc.record({ kind: fc.constant('set' as const), from: fc.nat(), at: fc.nat(), value: fc.integer() }),
    );
    fc.assert(
      fc.property(fc.array(op, { maxLength: 400 }), (ops) => {
        const versions: Array<{ vec: Vec<number>; model: number[] }> = [{ vec: emptyVec<number>(), model: [] }];
        for (const o of ops) {
          const base = versions[o.from % versions.length]!;
          if (o.kind === 'push') versions.push({ vec: vecPush(base.vec, o.value), model: [...base.model, o.value] });
          else if (base.model.length > 0) {
            const at = o.at % base.model.length;
            const model = [...base.model];
            model[at] = o.value;
            versions.push({ vec: vecSet(base.vec, at, o.value), model });
          }
        }
        for (const { vec, model } of versions) {
          expect(contents(vec)).toEqual(model);
          expect(vecToArray(vec)).toEqual(model);
          expect(vecFindLast(vec, () => true)).toBe(model[model.length - 1]);
        }
      }),
      { numRuns: 150 },
    );
  });

  it('two appends to one version across a chunk boundary stay apart', () => {
    let v = emptyVec<number>();
    for (let i = 0; i < 64; i++) v = vecPush(v, i);
    const a = vecPush(v, 100);
    const b = vecPush(v, 200);
    const a2 = vecPush(a, 101);
    expect([vecGet(a, 64), vecGet(b, 64), vecGet(a2, 65), v.length]).toEqual([100, 200, 101, 64]);
    expect(vecFindLast(v, (x) => x >= 100)).toBeUndefined();
  });
});

describe('KeyedVec', () => {
  it('a key appended by one version is not seen by a sibling that appended another', () => {
    let base: KeyedVec<string> = emptyKeyedVec<string>();
    base = kvAppend(base, 'a', 'A');
    const left = kvAppend(base, 'b', 'B');
    const right = kvAppend(base, 'c', 'C');
    expect([
      kvIndexOf(left, 'b'),
      kvIndexOf(left, 'c'),
      kvIndexOf(right, 'c'),
      kvIndexOf(right, 'b'),
      kvIndexOf(base, 'b'),
    ]).toEqual([1, -1, 1, -1, -1]);
    expect(kvValues(kvSetAt(left, 0, 'Z'))).toEqual(['Z', 'B']);
    expect(kvValues(left)).toEqual(['A', 'B']);
    expect(kvValues(right)).toEqual(['A', 'C']);
  });
});
