import type { z } from 'zod';

// A value cut to what its zod schema names: objects keep only the keys of their shape (a looseObject's extra keys,
// where the owner's configuration or a provider's details could sit, are dropped), recursively through arrays,
// optionals, unions and pipes. A value that does not match its schema at all is null: nothing unknown passes.
// Pure; used to make a stored frame public (publicFrames.ts).

type Def = {
  type: string;
  shape?: Record<string, z.ZodType>;
  element?: z.ZodType;
  innerType?: z.ZodType;
  options?: z.ZodType[];
  in?: z.ZodType;
  getter?: () => z.ZodType;
  valueType?: z.ZodType;
  items?: z.ZodType[];
  left?: z.ZodType;
  right?: z.ZodType;
};
const defOf = (schema: z.ZodType) => (schema as unknown as { _zod: { def: Def } })._zod.def;

/** Nesting deeper than this is cut (stored frames are a few levels deep). */
const MAX_DEPTH = 24;

export function allowListed(schema: z.ZodType, value: unknown, depth = 0): unknown {
  if (depth > MAX_DEPTH) return null;
  const def = defOf(schema);
  const next = (s: z.ZodType, v: unknown) => allowListed(s, v, depth + 1);
  switch (def.type) {
    case 'object': {
      if (typeof value !== 'object' || value === null || Array.isArray(value)) return null;
      const out: Record<string, unknown> = {};
      for (const [key, field] of Object.entries(def.shape ?? {})) {
        const v = (value as Record<string, unknown>)[key];
        if (v !== undefined) out[key] = next(field, v);
      }
      return out;
    }
    case 'array':
      return Array.isArray(value) ? value.map((v) => next(def.element!, v)) : null;
    case 'tuple':
      return Array.isArray(value) ? (def.items ?? []).map((s, i) => next(s, value[i])) : null;
    case 'record': {
      if (typeof value !== 'object' || value === null || Array.isArray(value)) return null;
      return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, next(def.valueType!, v)]));
    }
    case 'optional':
    case 'nullable':
    case 'default':
    case 'prefault':
    case 'catch':
    case 'readonly':
    case 'nonoptional':
      return value === undefined || value === null ? value : next(def.innerType!, value);
    case 'union': {
      // The first option the value satisfies decides which keys it keeps (a discriminated union's by its `type`).
      const hit = (def.options ?? []).find((o) => o.safeParse(value).success);
      return hit ? next(hit, value) : null;
    }
    case 'intersection': {
      const l = next(def.left!, value);
      const r = next(def.right!, value);
      return l && r && typeof l === 'object' && typeof r === 'object' ? { ...l, ...r } : (l ?? r);
    }
    case 'pipe':
      return next(def.in!, value);
    case 'lazy':
      return next(def.getter!(), value);
    default:
      // A leaf (string, number, enum, literal, unknown …): kept when it is one of JSON's plain values.
      return value === null || ['string', 'number', 'boolean'].includes(typeof value) ? value : null;
  }
}
