import { isIP } from 'node:net'
import { OutboundUrlError } from '../errors'
import { isPublicAddress } from './is-public-address'

/**
 * Parses a URL the provider will POST to and refuses what it must never reach: anything but http(s), and
 * literal non-public IP addresses (unless private targets are allowed). Host names are checked again when
 * they resolve, by the outbound client's lookup.
 */
export function checkOutboundUrl(
  raw: string,
  what: string,
  { allowPrivate }: { allowPrivate: boolean },
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
  const host = url.hostname.replace(/^\[|\]$/g, '')
  if (!allowPrivate && isIP(host) !== 0 && !isPublicAddress(host)) {
    throw new OutboundUrlError(`${what} points at a non-public address`)
  }
  return url
}
