import type { LookupAddress, LookupOneOptions } from 'node:dns';
import type { Agent } from 'undici';
import { BlockedAddressError, judgeAddress, judgeHost, resolveHost, type PrivateSetting } from './addressRule';

// fetch for the addresses a user chooses (model connections, built-in model downloads): the address rule is
// applied where the socket is opened. An undici Agent whose connector judges an address literal before
// connecting and resolves a name itself, judging every address it got (a name that resolved to a public
// address on Save and to 127.0.0.1 now is refused now); a name that does not resolve fails the call.
// Redirects are never followed here (callers that follow them do it by hand, each hop through this again).

type LookupCallback = (err: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void;

function judgedLookup(allowPrivate: boolean, setting: PrivateSetting) {
  return (hostname: string, options: LookupOneOptions & { all?: boolean }, callback: LookupCallback) => {
    resolveHost(hostname).then(
      (found) => {
        const notFound = (what: string) =>
          Object.assign(new Error(`${hostname} has no ${what}`), { code: 'ENOTFOUND' });
        if (!found.length) return callback(notFound('address'), []);
        for (const r of found) {
          const v = judgeAddress(r.address, allowPrivate, setting);
          if (!v.ok) return callback(new BlockedAddressError(`${hostname} resolves to ${v.detail}`), []);
        }
        const family = options?.family === 4 || options?.family === 6 ? options.family : null;
        const wanted = family ? found.filter((r) => r.family === family) : found;
        if (!wanted.length) return callback(notFound(`IPv${family} address`), []);
        if (options?.all)
          callback(
            null,
            wanted.map((r) => ({ address: r.address, family: r.family })),
          );
        else callback(null, wanted[0].address, wanted[0].family);
      },
      (e: NodeJS.ErrnoException) => callback(e, []),
    );
  };
}

const agents = new Map<string, Agent>();

/**
 * undici, loaded with the first call that needs it: evaluating it took ~20 ms of every start (npm run bench
 * server), and most starts make no call to a user's address.
 */
type Undici = typeof import('undici');
let undici: Promise<Undici> | null = null;
/**
 * undici is CommonJS: node's own import() of it gives its exports by name and as `default`, and the server bundle's
 * chunk for it (esbuild's split ESM) as `default` only, so they are read from `default` when there is one.
 */
const importUndici = async (): Promise<Undici> => {
  const m = await import('undici');
  return (m as Undici & { default?: Undici }).default ?? m;
};

/** One Agent per rule (its connection pool is reused across calls). */
export async function guardedAgent(allowPrivate: boolean, setting: PrivateSetting): Promise<Agent> {
  const key = `${allowPrivate}:${setting}`;
  let agent = agents.get(key);
  if (!agent) {
    const { Agent, buildConnector } = await (undici ??= importUndici());
    agent = agents.get(key); // made meanwhile by another first call
    if (agent) return agent;
    const connector = buildConnector({ lookup: judgedLookup(allowPrivate, setting) as never, timeout: 10_000 });
    agent = new Agent({
      connect(opts, callback) {
        const host = opts.hostname.replace(/^\[|\]$/g, '');
        const v = judgeHost(host, allowPrivate, setting);
        if (!v.ok) return callback(new BlockedAddressError(v.detail), null);
        // An address literal never reaches the lookup, so it is judged here; a name is judged by every address.
        return connector(opts, callback);
      },
    });
    agents.set(key, agent);
  }
  return agent;
}

export interface GuardOptions {
  allowPrivate: boolean;
  setting: PrivateSetting;
}

export type FetchLike = (url: string | URL, init?: RequestInit) => Promise<Response>;

/** fetch through the address rule; the same Response as the global fetch. */
export function guardedFetch(guard: GuardOptions): FetchLike {
  return async (url, init) => {
    const dispatcher = await guardedAgent(guard.allowPrivate, guard.setting);
    return fetch(url, { ...init, dispatcher } as RequestInit);
  };
}

/** The refusal inside a failed fetch, when that is why it failed. */
export function blockedCause(e: unknown): BlockedAddressError | null {
  let cur: unknown = e;
  for (let i = 0; i < 4 && cur; i++) {
    if (cur instanceof BlockedAddressError) return cur;
    if ((cur as { code?: string }).code === 'EBLOCKED') return cur as BlockedAddressError;
    cur = (cur as { cause?: unknown }).cause;
  }
  return null;
}
