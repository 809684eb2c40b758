import { createHash } from 'node:crypto';
import type { Queryable } from '../db/db';

// Who a person is to others in a room: a display name (their own, else the part of their email before '@') and a
// colour drawn from their id, the same in every room. Never the email itself.

/** The name others see: the chosen one, else the email's local part (bounded like a chosen one). */
export const shownName = (displayName: string | null | undefined, email: string) =>
  displayName?.trim() || email.split('@')[0].slice(0, 40) || 'someone';

/** A CSS colour from the user's id: hue from its hash, saturation and lightness readable on light and dark. */
export function colourOf(userId: string): string {
  const hue = createHash('sha256').update(userId).digest().readUInt16BE(0) % 360;
  return `hsl(${hue} 65% 45%)`;
}

export interface Person {
  user_id: string;
  display_name: string;
  colour: string;
}

/** The people of these ids as others see them (unknown ids are left out). */
export async function peopleByIds(db: Queryable, ids: readonly string[]): Promise<Map<string, Person>> {
  const out = new Map<string, Person>();
  if (!ids.length) return out;
  const rows = await db.query<{ id: string; email: string; display_name: string | null }>(
    'SELECT id, email, display_name FROM users WHERE id = ANY($1::text[])',
    [[...new Set(ids)]],
  );
  for (const r of rows)
    out.set(r.id, { user_id: r.id, display_name: shownName(r.display_name, r.email), colour: colourOf(r.id) });
  return out;
}

export async function personOf(db: Queryable, id: string): Promise<Person | null> {
  return (await peopleByIds(db, [id])).get(id) ?? null;
}
