import ipaddr from 'ipaddr.js'

/**
 * True only for globally routable unicast addresses. Loopback, private, link-local (so cloud metadata at
 * 169.254.169.254), unique-local, carrier-grade NAT, multicast, reserved and the tunnelling ranges are not;
 * IPv4-mapped IPv6 is judged as the IPv4 address it carries. Ranges come from ipaddr.js, not from us.
 */
export function isPublicAddress(address: string): boolean {
  if (!ipaddr.isValid(address)) return false
  return ipaddr.process(address).range() === 'unicast'
}
