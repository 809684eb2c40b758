import { z } from 'zod';

// One parse path for every socket in the app (and in the server's recorder): bytes → JSON → safeParse
// against a discriminated union. An unknown `type` is reported as such (to be logged and ignored); a
// known type that fails its schema, or bytes that are not a typed JSON object, is 'malformed' and
// becomes a single protocol.error event upstream.

export type FrameResult<T> =
  | { kind: 'frame'; frame: T }
  | { kind: 'unknown'; type: string }
  | { kind: 'malformed'; type: string; error: string };

type TypedUnion = z.ZodDiscriminatedUnion<
  readonly z.ZodObject<{ type: z.ZodLiteral<string> } & z.ZodRawShape>[],
  'type'
>;

export const knownTypes = (schema: TypedUnion): ReadonlySet<string> =>
  new Set(schema.options.flatMap((o) => [...(o.shape.type as z.ZodLiteral<string>).values]));

/** Text read as JSON, never throwing; the error is JSON.parse's own words. */
export type JsonRead = { ok: true; value: unknown } | { ok: false; error: string };
export function readJson(text: string): JsonRead {
  try {
    return { ok: true, value: JSON.parse(text) as unknown };
  } catch (e) {
    return { ok: false, error: e instanceof Error ? e.message : String(e) };
  }
}

/** A JSON object (not an array, not null): what every socket frame is. */
export const jsonObject = z.custom<Record<string, unknown>>(
  (v) => typeof v === 'object' && v !== null && !Array.isArray(v),
);
const namesAType = z.looseObject({ type: z.string() });

/** The `type` a frame's text names (the developer tools read frames no schema knows): null when it names none, undefined when it is not JSON. */
export function typeNamedIn(text: string): string | null | undefined {
  const read = readJson(text);
  if (!read.ok) return undefined;
  const named = namesAType.safeParse(read.value);
  return named.success ? named.data.type : null;
}

export function parseFrame<S extends TypedUnion>(
  schema: S,
  raw: unknown,
  known = knownTypes(schema),
): FrameResult<z.infer<S>> {
  let data: unknown = raw;
  if (typeof raw === 'string') {
    const read = readJson(raw);
    if (!read.ok) return { kind: 'malformed', type: '(not JSON)', error: 'frame is not valid JSON' };
    data = read.value;
  }
  if (typeof data !== 'object' || data === null || typeof (data as { type?: unknown }).type !== 'string') {
    return { kind: 'malformed', type: '(untyped)', error: 'frame has no string "type"' };
  }
  const type = (data as { type: string }).type;
  if (!known.has(type)) return { kind: 'unknown', type };
  const parsed = schema.safeParse(data);
  if (!parsed.success) return { kind: 'malformed', type, error: z.prettifyError(parsed.error) };
  return { kind: 'frame', frame: parsed.data };
}
