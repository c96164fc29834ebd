import net from 'node:net';

/**
 * Addresses outbound HTTP must not reach unless allowed: loopback, private networks, link-local
 * (cloud metadata at 169.254.169.254 among them), shared, reserved and multicast space — the
 * addresses an attacker who controls a URL would aim at to reach what sits behind the worker.
 */
type Range = readonly [prefix: readonly number[], bits: number];

const IPV4_RANGES: readonly Range[] = [
  [[0, 0, 0, 0], 8], // "this network"
  [[10, 0, 0, 0], 8],
  [[100, 64, 0, 0], 10], // carrier-grade NAT
  [[127, 0, 0, 0], 8],
  [[169, 254, 0, 0], 16], // link-local
  [[172, 16, 0, 0], 12],
  [[192, 0, 0, 0], 24], // IETF protocol assignments
  [[192, 0, 2, 0], 24], // documentation (TEST-NET-1)
  [[192, 88, 99, 0], 24], // 6to4 relay anycast (deprecated)
  [[192, 168, 0, 0], 16],
  [[198, 18, 0, 0], 15], // benchmarking
  [[198, 51, 100, 0], 24], // documentation (TEST-NET-2)
  [[203, 0, 113, 0], 24], // documentation (TEST-NET-3)
  [[224, 0, 0, 0], 4], // multicast
  [[240, 0, 0, 0], 4], // reserved, broadcast
];

const IPV6_RANGES: readonly Range[] = [
  // :: and ::1, and the deprecated IPv4-compatible ::a.b.c.d: no host is reached that way
  // any more, and an OS may still route it to the IPv4 address.
  [[], 96],
  [[0x00, 0x64, 0xff, 0x9b, 0x00, 0x01], 48], // local-use NAT64 64:ff9b:1::/48: a site's own translator
  [[0x01, 0x00, 0, 0, 0, 0, 0, 0], 64], // discard-only
  [[0x20, 0x01, 0x00, 0x00], 32], // Teredo: the client's IPv4 address is hidden (obfuscated) inside
  [[0x20, 0x01, 0x00, 0x02, 0x00, 0x00], 48], // benchmarking
  [[0x20, 0x01, 0x00, 0x10], 28], // ORCHID (deprecated)
  [[0x20, 0x01, 0x00, 0x20], 28], // ORCHIDv2
  [[0x20, 0x01, 0x0d, 0xb8], 32], // documentation
  [[0x3f, 0xff], 20], // documentation (2024)
  [[0x5f, 0x00], 16], // segment-routing SIDs
  [[0xfc], 7], // unique local
  [[0xfe, 0x80], 10], // link-local
  [[0xfe, 0xc0], 10], // site-local (deprecated)
  [[0xff], 8], // multicast
];

/** IPv6 forms that carry an IPv4 address, which is then checked as IPv4: [prefix, bits, offset of the IPv4 bytes]. */
const EMBEDDING_IPV4: readonly (readonly [readonly number[], number, number])[] = [
  [[0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff], 96, 12], // IPv4-mapped ::ffff:a.b.c.d
  [[0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff, 0, 0], 96, 12], // IPv4-translated ::ffff:0:a.b.c.d (SIIT)
  [[0x00, 0x64, 0xff, 0x9b], 96, 12], // NAT64 64:ff9b::/96
  [[0x20, 0x02], 16, 2], // 6to4 2002:a.b.c.d::/48
];

function matches(bytes: readonly number[], prefix: readonly number[], bits: number): boolean {
  for (let bit = 0; bit < bits; bit += 8) {
    const take = Math.min(8, bits - bit);
    const mask = (0xff << (8 - take)) & 0xff;
    const index = bit / 8;
    if (((bytes[index] ?? 0) & mask) !== ((prefix[index] ?? 0) & mask)) return false;
  }
  return true;
}

const inAny = (bytes: readonly number[], ranges: readonly Range[]) =>
  ranges.some(([prefix, bits]) => matches(bytes, prefix, bits));

function ipv4Bytes(text: string): number[] {
  return text.split('.').map(Number);
}

/** Bytes of an IPv6 address that net.isIP accepted (zone id already removed). */
function ipv6Bytes(text: string): number[] {
  let hex = text;
  const lastColon = hex.lastIndexOf(':');
  if (hex.includes('.', lastColon)) {
    const [a = 0, b = 0, c = 0, d = 0] = ipv4Bytes(hex.slice(lastColon + 1));
    hex = `${hex.slice(0, lastColon + 1)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [left = '', right] = hex.split('::');
  const head = left === '' ? [] : left.split(':');
  const tail = right === undefined || right === '' ? [] : right.split(':');
  const groups =
    right === undefined ? head : [...head, ...new Array<string>(8 - head.length - tail.length).fill('0'), ...tail];
  return groups.flatMap((group) => {
    const value = parseInt(group, 16);
    return [value >> 8, value & 0xff];
  });
}

/** True for an address outbound HTTP refuses by default; also true for anything that is not an IP address (fail closed). */
export function isPrivateAddress(address: string): boolean {
  const bare = address.replace(/^\[(.*)\]$/, '$1');
  const zone = bare.indexOf('%');
  const ip = zone < 0 ? bare : bare.slice(0, zone);
  switch (net.isIP(ip)) {
    case 4:
      return inAny(ipv4Bytes(ip), IPV4_RANGES);
    case 6: {
      const bytes = ipv6Bytes(ip);
      if (inAny(bytes, IPV6_RANGES)) return true;
      return EMBEDDING_IPV4.some(
        ([prefix, bits, offset]) => matches(bytes, prefix, bits) && inAny(bytes.slice(offset, offset + 4), IPV4_RANGES),
      );
    }
    default:
      return true;
  }
}
