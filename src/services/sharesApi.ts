// The REST calls of read-only share links: the owner's (make, list, revoke; signed in) and the public page's one
// read (no account). The same one HTTP helper as every call (http.ts).
import { z } from 'zod';
import { shareCreated, shareList } from '../schemas/rooms';
import { sharedDiscussion } from '../schemas/shares';
import type { Http } from './http';

export function createSharesApi(http: Http) {
  const { request } = http;
  const enc = encodeURIComponent;
  return {
    listShares: async (discussionId: string) =>
      (await request('GET', `/discussions/${enc(discussionId)}/shares`, shareList)).shares,
    createShare: (discussionId: string) =>
      request('POST', `/discussions/${enc(discussionId)}/shares`, shareCreated, { json: {} }),
    revokeShare: async (id: string) => {
      await request('DELETE', `/shares/${enc(id)}`, z.unknown());
    },
    /** Public: no token is sent (the page has no account) and a 401 is never the session's business. */
    sharedDiscussion: (token: string) =>
      request('GET', `/shares/${enc(token)}/discussion`, sharedDiscussion, { public: true }),
  };
}
export type SharesApi = ReturnType<typeof createSharesApi>;
