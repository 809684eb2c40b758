import { z } from 'zod';

export type JsonSchema = Record<string, unknown>;

/**
 * A zod schema as JSON Schema, read as the wire carries it (`io: 'input'`: defaults make a field optional,
 * transforms show what is sent, not what the server makes of it). Refinements and custom checks cannot be
 * written in JSON Schema; they show as what they refine (or as any value).
 */
export function toJsonSchema(schema: z.ZodType, target: 'draft-2020-12' | 'draft-7' = 'draft-2020-12'): JsonSchema {
  const out = z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any', target }) as JsonSchema;
  delete out.$schema;
  return out;
}

/** The first example a schema carries in its zod metadata (`.meta({ examples: [...] })`). */
export const exampleOf = (schema: z.ZodType): unknown => {
  const examples = z.globalRegistry.get(schema)?.examples;
  return Array.isArray(examples) ? examples[0] : undefined;
};

/** A schema's declared fields (for path and query parameters), or none when it is not an object. */
export function objectFields(
  schema: z.ZodType,
): Array<{ name: string; required: boolean; schema: JsonSchema; description?: string }> {
  const json = toJsonSchema(schema);
  const props = (json.properties ?? {}) as Record<string, JsonSchema>;
  const required = new Set((json.required as string[] | undefined) ?? []);
  return Object.entries(props).map(([name, s]) => {
    const { description, ...rest } = s;
    return {
      name,
      required: required.has(name),
      schema: rest,
      ...(typeof description === 'string' ? { description } : {}),
    };
  });
}
