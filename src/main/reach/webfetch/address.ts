/**
 * Which network addresses a web fetch may connect to. A fetch the model asks for must never reach this machine,
 * the local network or a cloud's metadata service (the classic server-side request forgery doors), whatever
 * spelling the URL uses and whatever a DNS answer says.
 *
 * Rule: an address may be connected to only when ipaddr.js classifies it as plain public `unicast` AND it is not
 * one of the cloud metadata addresses below. Everything else is refused: loopback (127/8, ::1), private (10/8,
 * 172.16/12, 192.168/16), link-local (169.254/16, fe80::/10), carrier-grade NAT (100.64/10), unique-local
 * (fc00::/7), multicast, broadcast, unspecified (0.0.0.0, ::), reserved and benchmarking ranges, and the IPv6
 * forms that carry an IPv4 address inside (IPv4-mapped ::ffff:a.b.c.d, 6to4, Teredo, NAT64 64:ff9b::) — an
 * IPv4-mapped address names the IPv4 host, and the others can route to one we cannot judge.
 *
 * Odd spellings (`2130706433`, `0x7f.1`, `017700000001`, `127.1`, `[::ffff:7f00:1]`) are folded by the WHATWG
 * URL parser into the canonical address before this check sees them (url.ts); a trailing dot on a name is the
 * same name to DNS and is stripped before the allow-list compares names.
 */
import ipaddr from 'ipaddr.js';

/**
 * Cloud metadata addresses that are not already covered by a refused range (169.254.169.254 is link-local,
 * fd00:ec2::254 unique-local, 100.100.100.200 carrier-grade NAT): Azure's wire server 168.63.129.16 sits in public
 * space, so it is listed by name. The others are listed too so the refusal names them.
 */
const METADATA: ReadonlyMap<string, string> = new Map([
  ['169.254.169.254', 'the cloud metadata service (AWS, GCP, Azure, OCI, DigitalOcean)'],
  ['169.254.170.2', 'the AWS ECS task metadata service'],
  ['168.63.129.16', 'the Azure wire server'],
  ['100.100.100.200', 'the Alibaba Cloud metadata service'],
  ['fd00:ec2::254', 'the AWS metadata service (IPv6)'],
]);

/** Host names that are metadata services whatever they resolve to (refused before any lookup). */
const METADATA_NAMES = new Set(['metadata.google.internal', 'metadata.goog', 'metadata', 'instance-data']);

const RANGE_WORDS: Record<string, string> = {
  loopback: 'a loopback address (this machine)',
  private: 'a private-network address',
  linkLocal: 'a link-local address',
  carrierGradeNat: 'a carrier-grade NAT address',
  uniqueLocal: 'a unique-local address (private IPv6)',
  multicast: 'a multicast address',
  broadcast: 'the broadcast address',
  unspecified: 'the unspecified address (this machine)',
  reserved: 'a reserved address',
  benchmarking: 'a benchmarking address',
  ipv4Mapped: 'an IPv4-mapped IPv6 address',
  rfc6052: 'a NAT64 address (carries an IPv4 address)',
  rfc6145: 'an IPv4-translated address',
  '6to4': 'a 6to4 address (carries an IPv4 address)',
  teredo: 'a Teredo address (carries an IPv4 address)',
};

/**
 * Why `address` (an IPv4 or IPv6 literal, no brackets) may not be connected to, or undefined when it may. An
 * IPv4-mapped IPv6 address is judged as the IPv4 address it maps (and refused either way). Text that is not an
 * address is refused ("not an IP address"), never passed. Pure.
 */
export function blockedAddressReason(address: string): string | undefined {
  const bare = address.replace(/^\[|\]$/g, '');
  if (!ipaddr.isValid(bare)) return `${address} is not an IP address`;
  const parsed = ipaddr.parse(bare);
  const normal = parsed.toNormalizedString();
  const meta = METADATA.get(normal) ?? METADATA.get(parsed.toString());
  if (meta) return `${address} is ${meta}`;
  if (parsed.kind() === 'ipv6') {
    const v6 = parsed as ipaddr.IPv6;
    if (v6.isIPv4MappedAddress()) {
      const inner = v6.toIPv4Address().toString();
      const why = blockedAddressReason(inner);
      return `${address} is an IPv4-mapped IPv6 address (${why ?? `of ${inner}`})`;
    }
  }
  const range = parsed.range();
  if (range === 'unicast') return undefined;
  return `${address} is ${RANGE_WORDS[range] ?? `in the ${range} range`}`;
}

/** True when `address` is one of the cloud metadata addresses (also as an IPv4-mapped IPv6 address). Pure. */
export function isMetadataAddress(address: string): boolean {
  const bare = address.replace(/^\[|\]$/g, '');
  if (!ipaddr.isValid(bare)) return false;
  const parsed = ipaddr.process(bare);
  return METADATA.has(parsed.toNormalizedString()) || METADATA.has(parsed.toString());
}

/** True when `host` (a name, lower-case, no trailing dot) is `localhost` or below it (always loopback, RFC 6761). */
export function isLocalhostName(host: string): boolean {
  return host === 'localhost' || host.endsWith('.localhost');
}

/** True when `host` (a name, lower-case, no trailing dot) is a metadata service's name. Pure. */
export function isMetadataName(host: string): boolean {
  return METADATA_NAMES.has(host) || host.endsWith('.metadata.google.internal');
}

/** True when `host` is an IP literal (IPv4 dotted, or IPv6 with or without brackets). Pure. */
export function isIpLiteral(host: string): boolean {
  return ipaddr.isValid(host.replace(/^\[|\]$/g, ''));
}
