import { describe, expect, it } from 'vitest';
import type { HttpAnswer } from '../../src/services/http';
import { socketTicketFetcher } from '../../src/services/socketTicket';

const answering = (answer: Partial<HttpAnswer>) => ({
  send: async () => ({ status: 200, ok: true, statusText: 'OK', body: null, ...answer }) as HttpAnswer,
});

describe('socketTicketFetcher', () => {
  it('answers the ticket of a 200', async () => {
    expect(await socketTicketFetcher(answering({ body: { ticket: 't1', expires_in: 30 } }))()).toBe('t1');
  });
  it('answers null from a server without tickets, so the socket falls back to ?token=', async () => {
    expect(
      await socketTicketFetcher(answering({ status: 404, ok: false, body: { detail: 'Not found' } }))(),
    ).toBeNull();
  });
  it('rejects with the status and the detail otherwise', async () => {
    await expect(
      socketTicketFetcher(answering({ status: 401, ok: false, body: { detail: 'Invalid token' } }))(),
    ).rejects.toMatchObject({ status: 401, message: 'Invalid token' });
    await expect(socketTicketFetcher(answering({ body: { nope: 1 } }))()).rejects.toThrow('Unexpected answer');
  });
});
