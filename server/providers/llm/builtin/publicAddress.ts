import { lookup } from 'node:dns/promises';
import { BlockList, isIP } from 'node:net';

// A download URL comes from a user: unless the operator allows it, the server must not fetch from itself or
// its private network (cloud metadata at 169.254.169.254, an admin page on 10.x). Every hop of a redirect is
// checked again. The name is resolved here and again by fetch, so a DNS answer that changes in between
// (rebinding) is not caught; an operator who fears that keeps the server's egress behind a proxy.

const blocked = new BlockList();
for (const [net, bits] of [['0.0.0.0', 8], ['10.0.0.0', 8], ['100.64.0.0', 10], ['127.0.0.0', 8], ['169.254.0.0', 16], ['172.16.0.0', 12], ['192.168.0.0', 16], ['224.0.0.0', 3]] as const) blocked.addSubnet(net, bits, 'ipv4');
for (const [net, bits] of [['::', 127], ['fc00::', 7], ['fe80::', 10], ['ff00::', 8]] as const) blocked.addSubnet(net, bits, 'ipv6');

const isBlocked = (address: string) => {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (mapped) return blocked.check(mapped[1], 'ipv4');
  return blocked.check(address, isIP(address) === 6 ? 'ipv6' : 'ipv4');
};

/** Throws a worded Error when `url` is not http(s) or (unless allowed) names a loopback, private or link-local address. */
export async function assertFetchable(url: URL, allowPrivate: boolean): Promise<void> {
  if (url.protocol !== 'https:' && url.protocol !== 'http:') throw new Error(`Only http(s) URLs can be downloaded, not ${url.protocol}`);
  if (allowPrivate) return;
  const host = url.hostname.replace(/^\[|\]$/g, '');
  let addresses: string[];
  try {
    addresses = isIP(host) ? [host] : (await lookup(host, { all: true })).map((a) => a.address);
  } catch {
    throw new Error(`${url.hostname} could not be resolved`);
  }
  if (addresses.some(isBlocked)) {
    throw new Error(`${url.hostname} is a loopback or private address; this server downloads only from public ones (BUILTIN_DOWNLOAD_ALLOW_PRIVATE=1 allows it)`);
  }
}
