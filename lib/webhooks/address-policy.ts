import { BlockList, isIPv4, isIPv6 } from 'node:net';

/**
 * Where a webhook may be sent, decided on the address actually connected to (see resolve.ts):
 * - `forbidden` always: link-local (which holds the 169.254.169.254 metadata service of AWS,
 *   GCP, Azure and others), other cloud metadata addresses, unspecified, multicast, reserved;
 * - `private` unless WEBHOOK_ALLOW_PRIVATE: loopback, RFC 1918, shared (CGNAT), unique local;
 * - `public` otherwise.
 * IPv6 forms that carry an IPv4 address (mapped, compatible, NAT64, 6to4) are judged by it too.
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
  ['::1/128', 'fc00::/7'],
);

/** The 16 bytes of an IPv6 address, or null. */
function ipv6Bytes(address: string): number[] | null {
  let text = address;
  const tail: number[] = [];
  const dotted = /(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  if (dotted?.[1] !== undefined) {
    if (!isIPv4(dotted[1])) return null;
    tail.push(...dotted[1].split('.').map(Number));
    text = `${text.slice(0, -dotted[1].length)}0:0`;
  }
  const halves = text.split('::');
  if (halves.length > 2) return null;
  const groups = (part: string | undefined) => (part === undefined || part === '' ? [] : part.split(':'));
  const head = groups(halves[0]);
  const rest = groups(halves[1]);
  const fill = halves.length === 2 ? 8 - head.length - rest.length : 0;
  const all = [...head, ...Array<string>(fill).fill('0'), ...rest];
  if (all.length !== 8) return null;
  const bytes = all.flatMap((g) => {
    const n = parseInt(g, 16);
    return [n >> 8, n & 0xff];
  });
  if (tail.length === 4) bytes.splice(12, 4, ...tail);
  return bytes;
}

const isZero = (bytes: number[]) => bytes.every((b) => b === 0);

/** The IPv4 address an IPv6 one carries, if it is of a form that carries one. */
export function embeddedIPv4(address: string): string | null {
  const b = ipv6Bytes(address);
  if (!b) return null;
  const quad = (at: number) => b.slice(at, at + 4).join('.');
  const mapped = isZero(b.slice(0, 10)) && b[10] === 0xff && b[11] === 0xff;
  // The deprecated compatible form; :: and ::1 are themselves, not IPv4 addresses.
  const compatible = isZero(b.slice(0, 15)) ? (b[15] ?? 0) > 1 : isZero(b.slice(0, 12));
  const nat64 = b[0] === 0 && b[1] === 0x64 && b[2] === 0xff && b[3] === 0x9b && isZero(b.slice(4, 12));
  if (mapped || compatible || nat64) return quad(12);
  if (b[0] === 0x20 && b[1] === 0x02) return quad(2);
  return null;
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
  const own = classOfFamily(address, 'ipv6');
  const v4 = embeddedIPv4(address);
  if (v4 === null) return own;
  const carried = classOfFamily(v4, 'ipv4');
  return RANK[carried] > RANK[own] ? carried : own;
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
