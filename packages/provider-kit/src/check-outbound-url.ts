import { isIP } from 'node:net'
import { OutboundUrlError } from './errors'
import { isPublicAddress } from './is-public-address'

/**
 * Parses a URL the provider will POST to and refuses what it must never reach: anything but http(s), and
 * literal non-public IP addresses (unless private targets are allowed), ports outside `allowedPorts` when given.
 * Host names are checked again when
 * they resolve, by the outbound client's lookup.
 */
export function checkOutboundUrl(
  raw: string,
  what: string,
  { allowPrivate, allowedPorts }: { allowPrivate: boolean; allowedPorts?: readonly number[] },
): URL {
  let url: URL
  try {
    url = new URL(raw)
  } catch {
    throw new OutboundUrlError(`${what} is not a valid URL`)
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw new OutboundUrlError(`${what} must be http or https`)
  if (url.username || url.password) throw new OutboundUrlError(`${what} must not carry credentials`)
  const port = Number(url.port || (url.protocol === 'https:' ? 443 : 80))
  if (allowedPorts && !allowedPorts.includes(port))
    throw new OutboundUrlError(`${what} uses a port that is not allowed`)
  const host = url.hostname.replace(/^\[|\]$/g, '')
  if (!allowPrivate && isIP(host) !== 0 && !isPublicAddress(host)) {
    throw new OutboundUrlError(`${what} points at a non-public address`)
  }
  return url
}
