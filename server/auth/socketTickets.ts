import { createHash, randomBytes } from 'node:crypto';
import type { Db } from '../db/db';

// Socket tickets (docs/protocol.md 'Opening a socket'): the client trades its bearer token for a ticket that opens
// one socket within SOCKET_TICKET_TTL_SECONDS, so what a proxy or a browser history keeps of a socket URL is
// worthless a moment later. Only the ticket's hash is stored; using it deletes it, so it opens one socket.

const hashOf = (ticket: string) => createHash('sha256').update(ticket).digest('hex');

export async function issueSocketTicket(db: Db, userId: string, ttlSeconds: number): Promise<string> {
  const ticket = randomBytes(24).toString('base64url');
  // Expired tickets go as new ones are made: the table holds only the last few seconds' worth.
  await db.query('DELETE FROM socket_tickets WHERE expires_at < now()');
  await db.query(
    `INSERT INTO socket_tickets (ticket_hash, user_id, expires_at) VALUES ($1, $2, now() + $3::int * interval '1 second')`,
    [hashOf(ticket), userId, ttlSeconds],
  );
  return ticket;
}

/** The ticket's user, or null when it is unknown, used or expired; a ticket is good for one call only. */
export async function redeemSocketTicket(db: Db, ticket: string | undefined): Promise<string | null> {
  if (!ticket || ticket.length > 100) return null;
  const rows = await db.query<{ user_id: string; live: boolean }>(
    'DELETE FROM socket_tickets WHERE ticket_hash = $1 RETURNING user_id, expires_at > now() AS live',
    [hashOf(ticket)],
  );
  return rows[0]?.live ? rows[0].user_id : null;
}
