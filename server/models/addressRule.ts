import { lookup } from 'node:dns/promises';
import { BlockList, isIP } from 'node:net';

// Which addresses a user's model connection may reach (README 'Models' → 'Which addresses a connection may
// reach'). A server others can use must not become their proxy into its own network, yet a local Ollama on
// 127.0.0.1 is the commonest connection of all. The rule:
//   - link-local addresses (169.254.0.0/16, fe80::/10) are always refused: that is where cloud metadata services
//     live, and no model server does;
//   - loopback and private addresses (127/8, ::1, 10/8, 172.16/12, 192.168/16, 100.64/10, fc00::/7, 0.0.0.0) are
//     allowed unless the operator sets MODEL_CONNECTIONS_ALLOW_PRIVATE=false;
//   - every other (public) address is allowed.
// A host name is checked on every address it resolves to, on Test, on Save and again before each call.

const linkLocal = new BlockList();
linkLocal.addSubnet('169.254.0.0', 16, 'ipv4');
linkLocal.addSubnet('fe80::', 10, 'ipv6');

const internal = new BlockList();
internal.addSubnet('127.0.0.0', 8, 'ipv4');
internal.addSubnet('10.0.0.0', 8, 'ipv4');
internal.addSubnet('172.16.0.0', 12, 'ipv4');
internal.addSubnet('192.168.0.0', 16, 'ipv4');
internal.addSubnet('100.64.0.0', 10, 'ipv4');
internal.addSubnet('0.0.0.0', 8, 'ipv4');
internal.addAddress('::1', 'ipv6');
internal.addAddress('::', 'ipv6');
internal.addSubnet('fc00::', 7, 'ipv6');

export type AddressVerdict = { ok: true } | { ok: false; detail: string };

/** An IPv4 address written as IPv6 (::ffff:127.0.0.1) is judged as the IPv4 address it is. */
const unmapped = (addr: string) => {
  const m = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(addr);
  return m ? m[1] : addr;
};

export function judgeAddress(address: string, allowPrivate: boolean): AddressVerdict {
  const a = unmapped(address);
  const type = isIP(a) === 6 ? 'ipv6' : 'ipv4';
  if (linkLocal.check(a, type)) return { ok: false, detail: `${a} is a link-local address (where cloud metadata lives); model connections may not reach it` };
  if (!allowPrivate && internal.check(a, type)) {
    return { ok: false, detail: `${a} is a loopback or private address, and this server does not let connections reach its own network (MODEL_CONNECTIONS_ALLOW_PRIVATE=false)` };
  }
  return { ok: true };
}

export class BlockedAddressError extends Error {}

/**
 * Resolves the URL's host and judges every address. A name that does not resolve passes here (the call that
 * follows fails with a DNS error, worded as such); only a resolved address can be refused.
 */
export async function checkUrl(url: string, allowPrivate: boolean): Promise<AddressVerdict> {
  const host = new URL(url).hostname.replace(/^\[|\]$/g, '');
  let addresses: string[];
  if (isIP(host)) addresses = [host];
  else {
    try {
      addresses = (await lookup(host, { all: true, verbatim: true })).map((r) => r.address);
    } catch {
      return { ok: true };
    }
  }
  for (const a of addresses) {
    const v = judgeAddress(a, allowPrivate);
    if (!v.ok) return host === a ? v : { ok: false, detail: `${host} resolves to ${v.detail}` };
  }
  return { ok: true };
}
