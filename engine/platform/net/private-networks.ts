// Which addresses the engine may fetch from: public unicast only, unless an operator allowed a network
// (ALLOWED_PRIVATE_NETWORKS). Everything ipaddr.js does not call `unicast` (loopback, private, link-local,
// CGNAT, multicast, broadcast, reserved, NAT64/6to4/Teredo that embed IPv4, ...) is refused.
import ipaddr from 'ipaddr.js';

type Address = ipaddr.IPv4 | ipaddr.IPv6;
export type Network = [Address, number];

/** CIDRs (a bare address counts as one host); throws on one that is not a CIDR, so a typo is not silent. */
export function parseNetworks(cidrs: Iterable<string>): Network[] {
  return [...cidrs].map((raw) => {
    const text = raw.trim();
    if (ipaddr.isValidCIDR(text)) {
      const [address, bits] = ipaddr.parseCIDR(text);
      return address instanceof ipaddr.IPv6 && address.isIPv4MappedAddress() && bits >= 96
        ? [address.toIPv4Address(), bits - 96]
        : [address, bits];
    }
    if (ipaddr.isValid(text)) {
      const address = unmapped(ipaddr.parse(text));
      return [address, address.kind() === 'ipv4' ? 32 : 128];
    }
    throw new TypeError(`not a network (CIDR): ${JSON.stringify(raw)}`);
  });
}

/** An IPv4-mapped IPv6 address (::ffff:a.b.c.d) is judged as the IPv4 address it reaches. */
function unmapped(address: Address): Address {
  if (address instanceof ipaddr.IPv6 && address.isIPv4MappedAddress()) return address.toIPv4Address();
  return address;
}

/** IPv4-compatible IPv6 (::a.b.c.d, deprecated) is reported `unicast` by ipaddr.js; never fetch from it. */
function rangeOf(address: Address): string {
  const range = address.range(); // first: ::1 and :: are loopback and unspecified, not IPv4-compatible
  if (range === 'unicast' && address instanceof ipaddr.IPv6) {
    const parts = address.parts;
    if (parts.slice(0, 6).every((p) => p === 0)) return 'ipv4Compatible';
  }
  return range;
}

/**
 * Why an address may not be fetched from (its range's name: `loopback`, `private`, ...), or undefined when
 * it may: a public unicast address, or one inside an allowed network.
 */
export function refusedRange(text: string, allowed: readonly Network[]): string | undefined {
  if (!ipaddr.isValid(text)) return 'invalid';
  const address = unmapped(ipaddr.parse(text));
  if (allowed.some(([net, bits]) => net.kind() === address.kind() && address.match(net, bits))) return undefined;
  const range = rangeOf(address);
  return range === 'unicast' ? undefined : range;
}
