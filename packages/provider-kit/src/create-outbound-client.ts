import { lookup as dnsLookup, type LookupAddress, type LookupOptions } from 'node:dns'
import { Agent as HttpAgent } from 'node:http'
import { Agent as HttpsAgent } from 'node:https'
import axios, { type AxiosInstance } from 'axios'
import { isPublicAddress } from './is-public-address'

type LookupCallback = (
  error: NodeJS.ErrnoException | null,
  address: string | LookupAddress[],
  family?: number,
) => void

/**
 * A DNS lookup that refuses host names resolving to non-public addresses. It runs when the socket connects,
 * so a name cannot pass a check and then resolve elsewhere (DNS rebinding).
 */
function publicOnlyLookup(hostname: string, options: LookupOptions, callback: LookupCallback): void {
  dnsLookup(hostname, { ...options, all: true }, (error, addresses) => {
    if (error) return callback(error, [])
    const refused = addresses.find((entry) => !isPublicAddress(entry.address))
    // Not an OutboundUrlError: its text would reach the caller, and what a name resolves to is not theirs to
    // learn (a DNS oracle). The address is in the log line of the failed query.
    if (refused)
      return callback(new Error(`${hostname} resolves to a non-public address (${refused.address})`), [])
    if (options.all) return callback(null, addresses)
    const first = addresses[0] as LookupAddress
    return callback(null, first.address, first.family)
  })
}

/** The outbound client: an axios instance, named so that users of the kit need not depend on axios. */
export type OutboundClient = AxiosInstance

export interface OutboundClientOptions {
  allowPrivate: boolean
  timeoutMs: number
}

/**
 * The one HTTP client for callbacks and webhook deliveries: a hard time-out per request, no redirects, no
 * proxy from the environment, responses never parsed, and (unless allowed) no private targets.
 */
export function createOutboundClient({ allowPrivate, timeoutMs }: OutboundClientOptions): AxiosInstance {
  const lookup = allowPrivate ? undefined : (publicOnlyLookup as unknown as typeof dnsLookup)
  return axios.create({
    timeout: timeoutMs,
    httpAgent: new HttpAgent({ keepAlive: true, lookup }),
    httpsAgent: new HttpsAgent({ keepAlive: true, lookup }),
    proxy: false,
    maxRedirects: 0,
    maxContentLength: 64 * 1024,
    responseType: 'text',
    transformResponse: [(data: unknown) => data],
    validateStatus: () => true,
  })
}
