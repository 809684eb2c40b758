import { blockedCause, guardedFetch } from '../models/guardedFetch';
import { BodyTooLargeError, readCappedBytes } from '../providers/boundedBody';
import { UnreadableSource } from './read/types';

// A web page the person names: fetched by the server under the one address rule (each redirect hop judged
// again), its body cut at SOURCE_MAX_BYTES as it streams, within the read time.

const MAX_REDIRECTS = 5;

export interface FetchedPage {
  url: string;
  /** The name the page's bytes are read under: its kind comes from the answer's type. */
  fileName: string;
  bytes: Buffer;
}

function fileNameFor(url: URL, type: string): string | null {
  const base = decodeURIComponent(url.pathname.split('/').filter(Boolean).at(-1) ?? url.hostname) || url.hostname;
  const stem = base.replace(/\.[a-z0-9]+$/i, '').slice(0, 120) || url.hostname;
  if (type.includes('pdf')) return `${stem}.pdf`;
  if (type.includes('html') || type.includes('xhtml')) return `${stem}.html`;
  if (type.includes('markdown')) return `${stem}.md`;
  if (type.startsWith('text/')) return `${stem}.txt`;
  return null;
}

export async function fetchPage(
  address: string,
  opts: { maxBytes: number; allowPrivate: boolean; signal: AbortSignal },
): Promise<FetchedPage> {
  let url: URL;
  try {
    url = new URL(address);
  } catch {
    throw new UnreadableSource('That is not a web address (it should start with https://).');
  }
  const fetch = guardedFetch({ allowPrivate: opts.allowPrivate, setting: 'SOURCES_ALLOW_PRIVATE' });
  for (let hop = 0; ; hop++) {
    if (url.protocol !== 'http:' && url.protocol !== 'https:')
      throw new UnreadableSource('Only http:// and https:// pages can be added.');
    if (url.username || url.password)
      throw new UnreadableSource('A page address may not carry a user name or password.');
    let res: Response;
    try {
      res = await fetch(url, {
        redirect: 'manual',
        signal: opts.signal,
        headers: { accept: 'text/html, application/xhtml+xml, text/plain, text/markdown, application/pdf;q=0.9' },
      });
    } catch (e) {
      const blocked = blockedCause(e);
      if (blocked) throw new UnreadableSource(`This page cannot be fetched: ${blocked.message}.`);
      if (opts.signal.aborted) throw e;
      throw new UnreadableSource(`The page at ${url.host} did not answer.`, 422);
    }
    if (res.status >= 300 && res.status < 400 && res.headers.get('location')) {
      await res.body?.cancel().catch(() => undefined);
      if (hop >= MAX_REDIRECTS) throw new UnreadableSource('The page redirects too many times.');
      url = new URL(res.headers.get('location')!, url);
      continue;
    }
    if (!res.ok) {
      await res.body?.cancel().catch(() => undefined);
      throw new UnreadableSource(
        `The page answered ${res.status}${res.statusText ? ` ${res.statusText}` : ''}; nothing was added.`,
      );
    }
    const type = (res.headers.get('content-type') ?? 'text/html').toLowerCase();
    const fileName = fileNameFor(url, type);
    if (!fileName) {
      await res.body?.cancel().catch(() => undefined);
      throw new UnreadableSource(`The page is ${type.split(';')[0]}, not a web page, PDF or text.`, 415);
    }
    try {
      return { url: url.href, fileName, bytes: await readCappedBytes(res, opts.maxBytes) };
    } catch (e) {
      if (e instanceof BodyTooLargeError)
        throw new UnreadableSource(
          `The page is larger than ${Math.round(opts.maxBytes / 1024 / 1024)} MB (SOURCE_MAX_BYTES); nothing was added.`,
          413,
        );
      throw e;
    }
  }
}
