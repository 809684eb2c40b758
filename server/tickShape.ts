import { createHook } from 'node:async_hooks';

// Imported first by main.ts, so that it runs before the rest of the server's modules are evaluated.
//
// Every `process.nextTick` builds a tick object `{ callback, args, [async_id_symbol], … }`, and V8 caches the maps
// of such objects as transitions from the map before them. Those transitions are weak: when no tick object is alive
// at a full GC, the maps go, and they are made again on the next tick. The server's start adds more than V8 keeps
// (~1,500) transitions to the maps of plain objects, and a map made again after that is no longer cached: every tick
// object then gets a map of its own, nextTick's property definitions go megamorphic and run in V8's runtime
// (`Runtime_DefineKeyedOwnPropertyInLiteral`, `JSObject::MigrateToMap` in `perf`). Whether a process ends up so
// depends on where its GCs fall; on this VM half of the servers did, and such a server spent ~20 % more CPU on each
// request (docs/performance.md, eighteenth session). One tick object kept for the life of the process keeps its
// maps, and their transitions, alive.
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
