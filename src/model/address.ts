// The app's addresses (README 'The shell'): which view a path, query and hash name, and the path of a view. Pure and
// the only place that knows the address grammar; the navigation actor (navigation.machine.ts) writes and reads
// addresses through it, the server's history fallback answers the same paths (server/http/spaPaths.ts).
//   /                                   the canvas
//   /history?format=…&q=…               History's list, filtered
//   /discussions/{id}                   a stored discussion (the id History lists)
//   /discussions/{id}/replay#t={turn}   its replay at a moment
//   /evaluations[/{id}]                 the Evaluate dialog (at a run)
//   /s/{token}                          a read-only share link (public)
//   /join/{token}                       an invite to a live discussion
// Anything else is a 'not found' route that keeps the path it was given, so the view can say which.
import { FORMAT_KINDS } from '../schemas/constants';
import type { FormatKind } from '../schemas/format';
import { joinPath, sharePath } from '../schemas/roomPaths';

export type Route =
  | { kind: 'canvas' }
  | { kind: 'history'; format: FormatKind | ''; q: string }
  | { kind: 'discussion'; id: string }
  | { kind: 'replay'; id: string; turn: number }
  | { kind: 'evaluation'; id: string | null }
  | { kind: 'share'; token: string }
  | { kind: 'join'; token: string }
  | { kind: 'notFound'; path: string };

export type RouteKind = Route['kind'];

/** The part of a location the grammar reads (window.location has these three). */
export interface AddressParts {
  pathname: string;
  search: string;
  hash: string;
}

/** An id or a token in a path: at most this long (the server's idText bound), with no control character. */
export const ADDRESS_ID_MAX = 200;
/** History's topic filter: at most this long (history.machine's filter bound). */
export const ADDRESS_QUERY_MAX = 200;
/** A path longer than this is not read at all (it is no address of ours). */
export const ADDRESS_PATH_MAX = 2048;
/** The largest turn a #t= names (7 digits, as the replay's timeline reads). */
const TURN_RE = /(?:^#|&)t=(\d{1,7})(?:&|$)/;
const TOKEN_RE = /^[A-Za-z0-9_-]{1,200}$/;
// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what it refuses
const CONTROL_RE = /[\u0000-\u001f\u007f]/;

export const CANVAS: Route = { kind: 'canvas' };

const isFormat = (s: string): s is FormatKind => (FORMAT_KINDS as readonly string[]).includes(s);

/** One path segment decoded, or null when it is malformed, empty, too long or holds a control character. */
function segment(raw: string | undefined): string | null {
  if (raw === undefined || raw === '') return null;
  let s: string;
  try {
    s = decodeURIComponent(raw);
  } catch {
    return null;
  }
  return s.length <= ADDRESS_ID_MAX && !CONTROL_RE.test(s) && !s.includes('/') ? s : null;
}

/** The turn a `#t=<turn>` hash names, or null. */
export const turnInHash = (hash: string): number | null => {
  const m = TURN_RE.exec(hash);
  return m ? Number(m[1]) : null;
};

/** The route an address names. Never throws: what it cannot read is `notFound` with the path it was given. */
export function parseAddress({ pathname, search, hash }: AddressParts): Route {
  const path = pathname.slice(0, ADDRESS_PATH_MAX);
  const notFound: Route = { kind: 'notFound', path };
  if (pathname.length > ADDRESS_PATH_MAX) return notFound;
  // A trailing slash names the same page ('/history/' is '/history').
  const parts = (path.length > 1 ? path.replace(/\/+$/, '') : path).split('/').slice(1);
  const [head, a, b, ...rest] = parts;
  if (rest.length > 0) return notFound;
  if (parts.length === 1 && head === '') return CANVAS;
  switch (head) {
    case 'history': {
      if (a !== undefined) return notFound;
      const params = new URLSearchParams(search.slice(0, ADDRESS_PATH_MAX));
      const format = params.get('format') ?? '';
      const q = (params.get('q') ?? '').slice(0, ADDRESS_QUERY_MAX);
      return { kind: 'history', format: isFormat(format) ? format : '', q: CONTROL_RE.test(q) ? '' : q };
    }
    case 'discussions': {
      const id = segment(a);
      if (id === null) return notFound;
      if (b === undefined) return { kind: 'discussion', id };
      // No moment named is the replay's start.
      return b === 'replay' ? { kind: 'replay', id, turn: turnInHash(hash) ?? 0 } : notFound;
    }
    case 'evaluations': {
      if (b !== undefined) return notFound;
      if (a === undefined) return { kind: 'evaluation', id: null };
      const id = segment(a);
      return id === null ? notFound : { kind: 'evaluation', id };
    }
    case 's':
    case 'join': {
      if (b !== undefined || a === undefined || !TOKEN_RE.test(a)) return notFound;
      return head === 's' ? { kind: 'share', token: a } : { kind: 'join', token: a };
    }
    default:
      return notFound;
  }
}

/** The address (path, query, hash) of a route: what the navigation actor writes. */
export function formatAddress(route: Route): string {
  switch (route.kind) {
    case 'canvas':
      return '/';
    case 'history': {
      const params = new URLSearchParams();
      if (route.format) params.set('format', route.format);
      if (route.q) params.set('q', route.q.slice(0, ADDRESS_QUERY_MAX));
      const query = params.toString();
      return query ? `/history?${query}` : '/history';
    }
    case 'discussion':
      return `/discussions/${encodeURIComponent(route.id)}`;
    case 'replay':
      return `/discussions/${encodeURIComponent(route.id)}/replay#t=${route.turn}`;
    case 'evaluation':
      return route.id === null ? '/evaluations' : `/evaluations/${encodeURIComponent(route.id)}`;
    case 'share':
      return sharePath(route.token);
    case 'join':
      return joinPath(route.token);
    case 'notFound':
      return route.path;
  }
}

/** Two routes name the same address. */
export const sameAddress = (a: Route, b: Route) => formatAddress(a) === formatAddress(b);

/**
 * Two routes are one view in two states — History with another filter, the replay at another turn, the Evaluate
 * dialog at another run — so moving between them replaces the address instead of adding a Back step.
 */
export function sameView(a: Route, b: Route): boolean {
  if (a.kind !== b.kind) return false;
  if (a.kind === 'replay' && b.kind === 'replay') return a.id === b.id;
  return a.kind === 'history' || a.kind === 'evaluation' || sameAddress(a, b);
}

/** Routes that only a signed-in user's charts can show (a share link is public; the shares part serves it). */
export const needsSignIn = (route: Route) => route.kind !== 'share';
