import { z } from 'zod';

/** Every error the server answers: `{"detail": "…"}` (the SPA reads `detail`). */
export const errorBody = z.object({ detail: z.union([z.string(), z.array(z.unknown())]) });
export type ErrorBody = z.infer<typeof errorBody>;

export const id = z.union([z.string().min(1), z.number()]).transform((v) => String(v));
export const isoDate = z.string();
