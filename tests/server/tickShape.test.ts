import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { keepTickObjectShape } from '../../server/tickShape';

const MODULE = path.resolve(__dirname, '../../server/tickShape.ts');
const dir = mkdtempSync(path.join(tmpdir(), 'agora-tick-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

// A process in the state the slow servers were most likely in (seen there only as its effect, the runtime path under
// nextTick): the tick objects' maps collected by full GCs while no tick was pending, then more transitions added to
// the plain object's map than V8 caches. Prints whether two tick objects
// made after that share one map (V8's %HaveSameMap, under --allow-natives-syntax).
const CHILD = `
import { createHook } from 'node:async_hooks';
if (process.env.KEEP === '1') await import(process.env.TICK_MODULE);
process.nextTick(() => {});
await new Promise((r) => setTimeout(r, 10));
for (let i = 0; i < 6; i++) gc();
const plain = [];
for (let i = 0; i < 3000; i++) { const o = {}; o['key' + i] = i; plain.push(o); }
const ticks = [];
const hook = createHook({ init(_id, type, _trigger, resource) { if (type === 'TickObject') ticks.push(resource); } }).enable();
process.nextTick(() => {});
process.nextTick(() => {});
hook.disable();
console.log(JSON.stringify({ sameMap: %HaveSameMap(ticks[0], ticks[1]) }));
`;

function tickMapsShared(keep: boolean): boolean {
  const file = path.join(dir, 'child.mjs');
  writeFileSync(file, CHILD);
  const out = execFileSync(process.execPath, ['--allow-natives-syntax', '--expose-gc', '--import', 'tsx', file], {
    env: { ...process.env, KEEP: keep ? '1' : '0', TICK_MODULE: MODULE },
    encoding: 'utf8',
    timeout: 30_000,
  });
  return (JSON.parse(out.trim().split('\n').pop()!) as { sameMap: boolean }).sameMap;
}

describe('one tick object kept for the life of the server (server/tickShape.ts)', () => {
  it('takes a tick object from node', () => {
    expect(keepTickObjectShape()).toBe(true);
  });

  it('without it, tick objects made after the start each get a map of their own; with it, they share one', () => {
    expect(tickMapsShared(false)).toBe(false);
    expect(tickMapsShared(true)).toBe(true);
  });
});
