import { BlockList, isIPv4, isIPv6 } from 'node:net';
import ipaddr from 'ipaddr.js';

/**
 * Where a webhook may be sent, decided on the address actually connected to (see resolve.ts):
 * - `forbidden` always: link-local (which holds the 169.254.169.254 metadata service of AWS,
 *   GCP, Azure and others), other cloud metadata addresses, unspecified, multicast, reserved;
 * - `private` unless WEBHOOK_ALLOW_PRIVATE: loopback, RFC 1918, shared (CGNAT), unique local,
 *   site-local, local-use NAT64;
 * - `public` otherwise.
 * IPv6 forms that carry an IPv4 address (EMBEDDINGS) are judged by the worse of the two.
 */
export type AddressClass = 'public' | 'private' | 'forbidden';

function list(v4: string[], v6: string[]): BlockList {
  const blocks = new BlockList();
  for (const cidr of v4) {
    const [net = '', bits = '32'] = cidr.split('/');
    blocks.addSubnet(net, Number(bits), 'ipv4');
  }
  for (const cidr of v6) {
    const [net = '', bits = '128'] = cidr.split('/');
    blocks.addSubnet(net, Number(bits), 'ipv6');
  }
  return blocks;
}

const FORBIDDEN = list(
  [
    '0.0.0.0/8',
    '169.254.0.0/16',
    // Alibaba Cloud and Oracle Cloud metadata services.
    '100.100.100.200/32',
    '192.0.0.192/32',
    '224.0.0.0/4',
    '240.0.0.0/4',
  ],
  ['::/128', 'fe80::/10', 'fd00:ec2::254/128', 'ff00::/8'],
);

const PRIVATE = list(
  ['127.0.0.0/8', '10.0.0.0/8', '172.16.0.0/12', '192.168.0.0/16', '100.64.0.0/10', '192.0.0.0/24', '198.18.0.0/15'],
  // Site-local (deprecated, still routed inside some networks) and the local-use NAT64 prefix,
  // which reaches only a translator of the local network, in a layout it chooses (RFC 8215).
  ['::1/128', 'fc00::/7', 'fec0::/10', '64:ff9b:1::/48'],
);

/** Where an IPv6 form carries an IPv4 address: after `prefix`, at byte `at`, bit-inverted for Teredo's client. */
interface Embedding {
  prefix: readonly number[];
  at: number;
  inverted?: boolean;
}

const zeros = (n: number) => Array<number>(n).fill(0);

/**
 * Every form a connection can reach an IPv4 host through; each is judged by the IPv4 address
 * too, since a stack or translator may deliver it there. Compatible (::a.b.c.d, deprecated but
 * still routed by some stacks) holds ::, whose 0.0.0.0 is forbidden as :: is.
 */
const EMBEDDINGS: readonly Embedding[] = [
  // IPv4-mapped, ::ffff:0:0/96.
  { prefix: [...zeros(10), 0xff, 0xff], at: 12 },
  // IPv4-translated (RFC 2765, RFC 6145), ::ffff:0:0:0/96.
  { prefix: [...zeros(8), 0xff, 0xff, 0, 0], at: 12 },
  // IPv4-compatible, ::/96.
  { prefix: zeros(12), at: 12 },
  // NAT64 well-known prefix, 64:ff9b::/96 (RFC 6052 allows it only as a /96).
  { prefix: [0, 0x64, 0xff, 0x9b, ...zeros(8)], at: 12 },
  // NAT64 local-use prefix, 64:ff9b:1::/48, in its /96 layout (PRIVATE holds all of it).
  { prefix: [0, 0x64, 0xff, 0x9b, 0, 1, ...zeros(6)], at: 12 },
  // 6to4, 2002::/16: the site's IPv4 address follows the prefix.
  { prefix: [0x20, 0x02], at: 2 },
  // Teredo, 2001::/32: its server, then (inverted) its client's mapped address.
  { prefix: [0x20, 0x01, 0, 0], at: 4 },
  { prefix: [0x20, 0x01, 0, 0], at: 12, inverted: true },
];

/** The IPv4 addresses an IPv6 address carries (none when it is of no embedding form). */
export function carriedIPv4(address: string): string[] {
  let bytes: number[];
  try {
    bytes = ipaddr.IPv6.parse(address).toByteArray();
  } catch {
    return [];
  }
  // ::1 is IPv6's own loopback, not the compatible form of 0.0.0.1.
  if (bytes.every((b, i) => b === (i === 15 ? 1 : 0))) return [];
  return EMBEDDINGS.filter(({ prefix }) => prefix.every((b, i) => bytes[i] === b)).map(({ at, inverted }) =>
    bytes
      .slice(at, at + 4)
      .map((b) => (inverted ? b ^ 0xff : b))
      .join('.'),
  );
}

function classOfFamily(address: string, family: 'ipv4' | 'ipv6'): AddressClass {
  if (FORBIDDEN.check(address, family)) return 'forbidden';
  if (PRIVATE.check(address, family)) return 'private';
  return 'public';
}

const RANK: Record<AddressClass, number> = { public: 0, private: 1, forbidden: 2 };

/** The class of an IP address; anything that is not one is forbidden. */
export function classifyAddress(raw: string): AddressClass {
  const address = raw.replace(/%.*$/, '');
  if (isIPv4(address)) return classOfFamily(address, 'ipv4');
  if (!isIPv6(address)) return 'forbidden';
  return carriedIPv4(address)
    .map((v4) => classOfFamily(v4, 'ipv4'))
    .reduce((worst, cls) => (RANK[cls] > RANK[worst] ? cls : worst), classOfFamily(address, 'ipv6'));
}

/** Null when the address may be connected to, otherwise why not. */
export function addressRefusal(address: string, allowPrivate: boolean): string | null {
  const cls = classifyAddress(address);
  if (cls === 'forbidden') return `${address} is a link-local, metadata or reserved address, which is never allowed`;
  if (cls === 'private' && !allowPrivate) {
    return `${address} is a loopback or private address, allowed only when WEBHOOK_ALLOW_PRIVATE=true`;
  }
  return null;
}
