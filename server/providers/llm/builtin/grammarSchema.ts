// llama.cpp's grammar is made from a subset of JSON Schema (node-llama-cpp's GbnfJsonSchema): no $schema,
// no defaults, no number bounds, and every listed property is written. A small model writes what it is
// forced to, so the grammar asks only for the required properties (the turn answer's reader fills the
// rest with defaults), and numbers are brought within the schema's bounds afterwards (boundNumbers).

type Schema = Record<string, unknown>;

const KEEP = new Set([
  'type',
  'enum',
  'const',
  'items',
  'minItems',
  'maxItems',
  'minLength',
  'maxLength',
  'format',
  'description',
]);

/** The schema the grammar is made from: required properties only, unsupported keywords dropped. */
export function grammarSchema(schema: Schema): Schema {
  const out: Schema = {};
  for (const [k, v] of Object.entries(schema))
    if (KEEP.has(k)) out[k] = k === 'items' && v && typeof v === 'object' ? grammarSchema(v as Schema) : v;
  if (Array.isArray(schema.anyOf) || Array.isArray(schema.oneOf))
    out.oneOf = ((schema.anyOf ?? schema.oneOf) as Schema[]).map(grammarSchema);
  if (schema.enum && out.type === 'string') delete out.type;
  if (schema.format && !['date-time', 'time', 'date'].includes(String(schema.format))) delete out.format;
  if (schema.type === 'object' || schema.properties) {
    const props = (schema.properties ?? {}) as Record<string, Schema>;
    const required = Array.isArray(schema.required) ? (schema.required as string[]) : Object.keys(props);
    out.type = 'object';
    out.properties = Object.fromEntries(required.filter((k) => props[k]).map((k) => [k, grammarSchema(props[k])]));
    out.additionalProperties = false;
  }
  return out;
}

/**
 * `value` with every number brought within its schema's minimum/maximum (a confidence of 37 → 1; a number
 * too large for a double → 0, then bounded). Values the schema does not describe are left alone.
 */
export function boundNumbers(value: unknown, schema: Schema): unknown {
  if (typeof value === 'number') {
    let v = Number.isFinite(value) ? value : 0;
    if (typeof schema.minimum === 'number') v = Math.max(schema.minimum, v);
    if (typeof schema.maximum === 'number') v = Math.min(schema.maximum, v);
    if (schema.type === 'integer') v = Math.round(v);
    return v;
  }
  if (Array.isArray(value)) return value.map((x) => (schema.items ? boundNumbers(x, schema.items as Schema) : x));
  if (value && typeof value === 'object') {
    const props = (schema.properties ?? {}) as Record<string, Schema>;
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, props[k] ? boundNumbers(v, props[k]) : v]));
  }
  return value;
}
