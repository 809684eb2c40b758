import { checkUrl } from '../../../models/addressRule';

// A download URL comes from a user: it is judged by the server's one address rule (models/addressRule.ts) with
// BUILTIN_DOWNLOAD_ALLOW_PRIVATE as its setting, here before starting (so a refusal is answered at once) and
// again on every connection the download opens (models/guardedFetch.ts), every redirect hop included.

/** Throws a worded Error when `url` is not http(s), does not resolve, or is an address the rule refuses. */
export async function assertFetchable(url: URL, allowPrivate: boolean): Promise<void> {
  if (url.protocol !== 'https:' && url.protocol !== 'http:')
    throw new Error(`Only http(s) URLs can be downloaded, not ${url.protocol}`);
  const verdict = await checkUrl(url.href, allowPrivate, 'BUILTIN_DOWNLOAD_ALLOW_PRIVATE');
  if (!verdict.ok) throw new Error(verdict.detail);
}
