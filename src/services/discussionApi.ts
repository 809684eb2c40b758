// The REST calls of the signed-in discussion features (part 2): the hybrid panel's mode descriptions and the
// stored discussions behind History. The same one HTTP helper as api.ts (http.ts: one error shape, one retry
// rule); a module of its own only so that it loads with the panels' chunk, after sign-in, not with the login screen.
import { z } from 'zod';
import { discussionHistory, historyPage, storedDiscussion, type HistoryPageQuery } from '../schemas/history';
import { hybridModesResponse } from '../schemas/hybridMeta';
import type { Http } from './http';

export function createDiscussionApi(http: Http) {
  const { request } = http;
  const enc = encodeURIComponent;
  return {
    hybridModes: async () => (await request('GET', '/api/ws/hybrid/modes', hybridModesResponse)).modes,
    listDiscussions: () => request('GET', '/discussion/history', discussionHistory),
    /** One page of History, newest first (infinite scroll); `q` filters by topic, `format` by format. */
    listDiscussionPage: (query: {
      cursor?: string | null;
      q?: string;
      format?: HistoryPageQuery['format'] | '';
      limit?: HistoryPageQuery['limit'];
    }) => {
      const params = new URLSearchParams();
      if (query.cursor) params.set('cursor', query.cursor);
      if (query.q) params.set('q', query.q);
      if (query.format) params.set('format', query.format);
      if (query.limit !== undefined) params.set('limit', String(query.limit));
      const qs = params.toString();
      return request('GET', `/discussion/history/page${qs ? `?${qs}` : ''}`, historyPage);
    },
    getDiscussion: (id: string) => request('GET', `/discussion/${enc(id)}`, storedDiscussion),
    deleteDiscussion: async (id: string) => {
      await request('DELETE', `/discussion/${enc(id)}`, z.unknown());
    },
  };
}

export type DiscussionApi = ReturnType<typeof createDiscussionApi>;
