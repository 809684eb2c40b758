import { z } from 'zod';

// In a browser, zod compiles no code at run time: its `new Function` probe would be reported as a violation of
// the app's Content-Security-Policy (script-src 'self', no 'unsafe-eval'), even though zod catches the refusal.
// The request schemas (auth, settings…) import this module, so it is evaluated when the app loads, before any parse.
if (typeof document !== 'undefined') z.config({ jitless: true });

/** Every error the server answers: `{"detail": "…"}` (the SPA reads `detail`). */
export const errorBody = z.object({ detail: z.union([z.string(), z.array(z.unknown())]) });
export type ErrorBody = z.infer<typeof errorBody>;

/** What a DELETE answers: the id it removed. */
export const deletedResponse = z.looseObject({ success: z.boolean(), id: z.string() });

export const id = z.union([z.string().min(1), z.number()]).transform((v) => String(v));
export const isoDate = z.string();

// ── Text that crosses a wire from a client ─────────────────────────────────
// PostgreSQL cannot store a NUL character, and no field of this app has a use for one. Every string a client
// sends (REST bodies, socket frames, URL ids) is read with `text()`, so a NUL is a 4xx with a detail at the edge
// instead of a database error later.

export const NUL_DETAIL = 'Text must not contain NUL characters (\\u0000)';
const NUL = '\u0000';

/**
 * Half of a UTF-16 surrogate pair on its own ('\ud800' in JSON) is not text either: PostgreSQL refuses it in
 * jsonb, and it cannot be written as UTF-8. Refused at the edge too (the fuzz test found it in a session_id).
 */
export const UNPAIRED_SURROGATE_DETAIL = 'Text must be valid Unicode (it contains half of a surrogate pair)';
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;
const isWellFormed = (s: string) => !LONE_SURROGATE.test(s);

/** A string that refuses NUL characters and unpaired surrogates; chain `.trim().min().max()` as on z.string(). */
export const text = () =>
  z
    .string()
    .refine((s) => !s.includes(NUL), { message: NUL_DETAIL, abort: true })
    .refine(isWellFormed, { message: UNPAIRED_SURROGATE_DETAIL, abort: true });

/** A client-sent id (URL parameter or body field): non-empty, at most 200 characters, no NUL. */
export const idText = () => text().min(1).max(200);

/** The first place a NUL occurs in a parsed value (its keys included), as a dotted path; null when there is none. */
export function findNul(value: unknown, at = '', depth = 0): string | null {
  if (typeof value === 'string') return value.includes(NUL) ? at || '(value)' : null;
  if (!value || typeof value !== 'object' || depth > 32) return null;
  for (const [k, v] of Object.entries(value)) {
    const here = at ? `${at}.${k}` : k;
    if (k.includes(NUL)) return here;
    const found = findNul(v, here, depth + 1);
    if (found) return found;
  }
  return null;
}
