// Fetches the single-use ticket each socket opens with (POST /auth/socket-ticket, docs/protocol.md 'Opening a
// socket'), so the session token never rides in a socket URL. A server that issues no tickets (404) is answered
// with null: the socket then opens with `?token=`, as the spec's clients do.
import { socketTicket } from '../schemas/auth';
import { detailOf, type Http } from './http';

export function socketTicketFetcher(http: Pick<Http, 'send'>): () => Promise<string | null> {
  return async () => {
    const answer = await http.send('POST', '/auth/socket-ticket');
    if (answer.status === 404 || answer.status === 405) return null;
    if (!answer.ok)
      throw Object.assign(new Error(detailOf(answer.body) ?? `Could not get a socket ticket (HTTP ${answer.status})`), {
        status: answer.status,
      });
    const checked = socketTicket.safeParse(answer.body);
    if (!checked.success) throw new Error('Unexpected answer from /auth/socket-ticket');
    return checked.data.ticket;
  };
}
