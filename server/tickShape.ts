import { createHook } from 'node:async_hooks';

// Imported first by main.ts, so that it runs before the rest of the server's modules are evaluated.
//
// Every `process.nextTick` builds a tick object `{ callback, args, [async_id_symbol], … }`, and V8 caches the maps
// of such objects as transitions from the map before them. Those transitions are weak: when no tick object is alive
// at a full GC, the maps go, and they are made again on the next tick. V8 caches at most ~1,500 transitions from one
// map; made again when there is no room left, the maps are not cached: every tick object then gets a map of its own,
// and nextTick's property definitions go megamorphic and run in V8's runtime
// (`Runtime_DefineKeyedOwnPropertyInLiteral`, `JSObject::MigrateToMap` in `perf`). Half of the servers started on
// this VM ran that path and spent ~20 % more CPU on each /health request; which ones changed from start to start
// (docs/performance.md, eighteenth session). One tick object kept for the life of the process keeps its maps, and
// their transitions, alive.
let kept: object | undefined;

/** Keeps one of node's tick objects, taken from the init hook node calls for it, for the life of the process. */
export function keepTickObjectShape(): boolean {
  if (kept) return true;
  const hook = createHook({
    init(_id, type, _trigger, resource) {
      if (type === 'TickObject') kept ??= resource as object;
    },
  });
  hook.enable();
  try {
    process.nextTick(() => {});
  } finally {
    hook.disable();
  }
  return kept !== undefined;
}

keepTickObjectShape();
