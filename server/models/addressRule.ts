import { lookup } from 'node:dns/promises';
import { BlockList, isIP } from 'node:net';

// Which addresses the server may reach for a user: model connections (Test, Save, listing, chat, pulls) and
// built-in model downloads (docs/models.md 'Which addresses a connection may reach'). One rule for both:
//   - never: link-local (169.254/16, fe80::/10), every cloud metadata address (AWS 169.254.169.254 and
//     fd00:ec2::/32, GCP and Azure 169.254.169.254 and Azure's 168.63.129.16, Alibaba 100.100.100.200, Oracle
//     192.0.0.192, Tencent 169.254.0.23) and name (metadata.google.internal, instance-data…), multicast and
//     reserved addresses;
//   - loopback and private addresses (127/8, ::1, 10/8, 172.16/12, 192.168/16, 100.64/10, 0/8, 192.0.0/24,
//     198.18/15, fc00::/7) only when the operator's setting allows them (MODEL_CONNECTIONS_ALLOW_PRIVATE, on by
//     default; BUILTIN_DOWNLOAD_ALLOW_PRIVATE, off by default); the setting never opens the first group;
//   - every other (public) address is allowed.
// An IPv6 address that carries an IPv4 one (IPv4-mapped ::ffff:a.b.c.d, IPv4-compatible ::a.b.c.d, NAT64
// 64:ff9b::/96 and 64:ff9b:1::/48, 6to4 2002::/16, Teredo 2001::/32) is judged as that IPv4 address too.
// The rule is applied to the address actually connected to (guardedFetch.ts), so a name that resolves
// differently the second time (DNS rebinding) gains nothing.

const neverV4 = new BlockList();
const NEVER_V4 = [
  ['169.254.0.0', 16],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
] as const;
for (const [net, bits] of NEVER_V4) neverV4.addSubnet(net, bits, 'ipv4');
for (const a of ['100.100.100.200', '192.0.0.192', '168.63.129.16']) neverV4.addAddress(a, 'ipv4');
const neverV6 = new BlockList();
const NEVER_V6 = [
  ['fe80::', 10],
  ['fec0::', 10],
  ['ff00::', 8],
  ['fd00:ec2::', 32],
] as const;
for (const [net, bits] of NEVER_V6) neverV6.addSubnet(net, bits, 'ipv6');

const privateV4 = new BlockList();
const PRIVATE_V4 = [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
] as const;
for (const [net, bits] of PRIVATE_V4) privateV4.addSubnet(net, bits, 'ipv4');
const privateV6 = new BlockList();
privateV6.addAddress('::1', 'ipv6');
privateV6.addAddress('::', 'ipv6');
privateV6.addSubnet('fc00::', 7, 'ipv6');

/** Host names of cloud metadata services; they are refused by name as well as by address. */
export const METADATA_NAMES = new Set([
  'metadata',
  'metadata.google.internal',
  'metadata.goog',
  'metadata.azure.internal',
  'instance-data',
  'instance-data.ec2.internal',
  'metadata.tencentyun.com',
  'metadata.packet.net',
  'metadata.platformequinix.com',
  'metadata.oraclecloud.com',
]);

export type AddressVerdict = { ok: true } | { ok: false; detail: string };

/** Which operator setting opens loopback and private addresses, for the refusal's wording. */
export type PrivateSetting =
  | 'MODEL_CONNECTIONS_ALLOW_PRIVATE'
  | 'BUILTIN_DOWNLOAD_ALLOW_PRIVATE'
  | 'SOURCES_ALLOW_PRIVATE';

/** The 16 bytes of an IPv6 address (a zone id is ignored), or null when it is not one. */
export function ipv6Bytes(address: string): number[] | null {
  const a = address.replace(/^\[|\]$/g, '').replace(/%.*$/, '');
  if (isIP(a) !== 6) return null;
  let text = a;
  const tail: number[] = [];
  const dotted = /(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  if (dotted) {
    tail.push(...dotted[1].split('.').map(Number));
    text = text.slice(0, -dotted[1].length);
    if (!text.endsWith('::')) text = text.slice(0, -1);
  }
  const [head, rest] = text.includes('::') ? text.split('::') : [text, null];
  const groups = (s: string) =>
    s
      ? s
          .split(':')
          .filter((g) => g !== '')
          .map((g) => parseInt(g, 16))
      : [];
  const h = groups(head);
  const r = rest === null ? [] : groups(rest);
  const tailGroups = tail.length ? 2 : 0;
  const missing = 8 - tailGroups - h.length - r.length;
  const all = rest === null ? h : [...h, ...new Array(Math.max(0, missing)).fill(0), ...r];
  const bytes = all.flatMap((g) => [(g >> 8) & 0xff, g & 0xff]);
  if (tail.length) bytes.push(...tail);
  return bytes.length === 16 ? bytes : null;
}

const v4 = (b: number[]) => b.join('.');

/** The IPv4 address an IPv6 address carries, when it is one of the forms that route to one. */
export function embeddedIpv4(bytes: number[]): string | null {
  const zero = (from: number, to: number) => bytes.slice(from, to).every((x) => x === 0);
  const last = bytes.slice(12, 16);
  // ::ffff:a.b.c.d (mapped) and ::ffff:0:a.b.c.d (SIIT).
  if (zero(0, 10) && bytes[10] === 0xff && bytes[11] === 0xff) return v4(last);
  if (zero(0, 8) && bytes[8] === 0xff && bytes[9] === 0xff && zero(10, 12)) return v4(last);
  // ::a.b.c.d (IPv4-compatible); :: and ::1 are themselves.
  if (zero(0, 12) && !(zero(12, 15) && bytes[15] <= 1)) return v4(last);
  // NAT64: 64:ff9b::/96 and the local-use 64:ff9b:1::/48.
  if (bytes[0] === 0x00 && bytes[1] === 0x64 && bytes[2] === 0xff && bytes[3] === 0x9b) return v4(last);
  // 6to4: 2002:AABB:CCDD::/48.
  if (bytes[0] === 0x20 && bytes[1] === 0x02) return v4(bytes.slice(2, 6));
  // Teredo: 2001:0000::/32, the client's address inverted in the last 32 bits.
  if (bytes[0] === 0x20 && bytes[1] === 0x01 && bytes[2] === 0 && bytes[3] === 0) return v4(last.map((x) => x ^ 0xff));
  return null;
}

/** Why a private address is refused, in the words of the setting that would allow it. */
const PRIVATE_REFUSAL: Record<PrivateSetting, (what: string) => string> = {
  MODEL_CONNECTIONS_ALLOW_PRIVATE: (what) =>
    `${what}, and this server does not let connections reach its own network (MODEL_CONNECTIONS_ALLOW_PRIVATE=false)`,
  BUILTIN_DOWNLOAD_ALLOW_PRIVATE: (what) =>
    `${what}; this server downloads only from public ones (BUILTIN_DOWNLOAD_ALLOW_PRIVATE=1 allows it)`,
  SOURCES_ALLOW_PRIVATE: (what) => `${what}; this server reads only public pages (SOURCES_ALLOW_PRIVATE=1 allows it)`,
};

const never = (what: string) => ({
  ok: false as const,
  detail: `${what} is a link-local, cloud metadata or reserved address; this server never connects to it for a user`,
});

/** Judges one address (IPv4 or IPv6, bracketed or not). */
export function judgeAddress(
  address: string,
  allowPrivate: boolean,
  setting: PrivateSetting = 'MODEL_CONNECTIONS_ALLOW_PRIVATE',
): AddressVerdict {
  const a = address.replace(/^\[|\]$/g, '').replace(/%.*$/, '');
  const family = isIP(a);
  if (!family) return { ok: false, detail: `${address} is not an IP address` };
  const candidates: Array<[string, 'ipv4' | 'ipv6']> = [[a, family === 6 ? 'ipv6' : 'ipv4']];
  if (family === 6) {
    const bytes = ipv6Bytes(a);
    if (!bytes) return { ok: false, detail: `${address} is not an IP address` };
    const inner = embeddedIpv4(bytes);
    if (inner) candidates.push([inner, 'ipv4']);
  }
  for (const [addr, type] of candidates) {
    if ((type === 'ipv4' ? neverV4 : neverV6).check(addr, type)) {
      // Kept in the wording: 'link-local' is what people search for.
      return never(addr === a ? a : `${a} (${addr})`);
    }
  }
  if (!allowPrivate) {
    for (const [addr, type] of candidates) {
      if ((type === 'ipv4' ? privateV4 : privateV6).check(addr, type)) {
        const where = addr === a ? a : `${a} (${addr})`;
        const what = `${where} is a loopback or private address`;
        return { ok: false, detail: PRIVATE_REFUSAL[setting](what) };
      }
    }
  }
  return { ok: true };
}

const bare = (host: string) =>
  host
    .replace(/^\[|\]$/g, '')
    .replace(/\.$/, '')
    .toLowerCase();

/** Judges a host as written in a URL: an address literal by the address rule, a name by the metadata names. */
export function judgeHost(host: string, allowPrivate: boolean, setting?: PrivateSetting): AddressVerdict {
  const h = bare(host);
  if (isIP(h)) return judgeAddress(h, allowPrivate, setting);
  if (METADATA_NAMES.has(h)) return never(h);
  return { ok: true };
}

export class BlockedAddressError extends Error {
  readonly code = 'EBLOCKED';
  constructor(readonly detail: string) {
    super(detail);
    this.name = 'BlockedAddressError';
  }
}

/** How names are resolved; tests replace it (useResolver) to play a DNS server that changes its answer. */
export type Resolver = (host: string) => Promise<Array<{ address: string; family: number }>>;
const systemResolver: Resolver = (host) => lookup(host, { all: true, verbatim: true });
let resolver: Resolver = systemResolver;
export const resolveHost: Resolver = (host) => resolver(host);
/** Replaces the resolver; returns the function that puts the system's back. */
export function useResolver(r: Resolver): () => void {
  resolver = r;
  return () => {
    resolver = systemResolver;
  };
}

/**
 * The early check, on Test and Save: the host and every address it resolves to now. A name that does not resolve
 * is left to the call that follows, which fails with a DNS error worded as such; the call itself judges every
 * address it connects to (guardedFetch.ts), so nothing resolved later can slip past.
 */
export async function checkUrl(url: string, allowPrivate: boolean, setting?: PrivateSetting): Promise<AddressVerdict> {
  let host: string;
  try {
    host = bare(new URL(url).hostname);
  } catch {
    return { ok: false, detail: `${url} is not a valid URL` };
  }
  const byHost = judgeHost(host, allowPrivate, setting);
  if (!byHost.ok || isIP(host)) return byHost;
  let addresses: string[];
  try {
    addresses = (await resolveHost(host)).map((r) => r.address);
  } catch {
    return { ok: true };
  }
  for (const a of addresses) {
    const v = judgeAddress(a, allowPrivate, setting);
    if (!v.ok) return { ok: false, detail: `${host} resolves to ${v.detail}` };
  }
  return { ok: true };
}
