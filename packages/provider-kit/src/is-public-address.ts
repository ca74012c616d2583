import ipaddr from 'ipaddr.js'

/**
 * True only for globally routable unicast addresses. Loopback, private, link-local (so cloud metadata at
 * 169.254.169.254), unique-local, carrier-grade NAT, multicast, reserved and the transition ranges (NAT64
 * `64:ff9b::/96`, 6to4, Teredo) are not, by ipaddr.js's ranges; IPv4-mapped IPv6 is judged as the IPv4 address
 * it carries. ipaddr.js calls the deprecated IPv4-compatible range `::/96` unicast, and URLs write
 * `[::127.0.0.1]` as `[::7f00:1]`: that range is refused here explicitly (RFC 4291 section 2.5.5.1).
 */
export function isPublicAddress(address: string): boolean {
  if (!ipaddr.isValid(address)) return false
  const parsed = ipaddr.process(address)
  if (
    parsed.kind() === 'ipv6' &&
    parsed
      .toByteArray()
      .slice(0, 12)
      .every((byte) => byte === 0)
  )
    return false
  return parsed.range() === 'unicast'
}
