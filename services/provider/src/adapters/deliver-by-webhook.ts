import type { AxiosInstance } from 'axios'
import type { DeliveryResult, DeliverySpec } from '@pf/schemas'
import { OutboundUrlError } from '../errors'
import { checkOutboundUrl } from '../outbound/check-outbound-url'

/**
 * Webhook delivery: POST of the results' JSON to `delivery.url`, no signature header (spec). The target's
 * status is recorded, never checked; only a failure to deliver at all is an error.
 */
export async function deliverByWebhook(
  http: AxiosInstance,
  delivery: DeliverySpec | null | undefined,
  results: readonly unknown[],
  {
    allowPrivate,
    allowedPorts,
    timeoutMs,
  }: { allowPrivate: boolean; allowedPorts?: readonly number[]; timeoutMs: number },
): Promise<DeliveryResult> {
  if (!delivery?.url) throw new OutboundUrlError('delivery.url is required for webhook delivery')
  const url = checkOutboundUrl(delivery.url, 'delivery.url', { allowPrivate, allowedPorts })
  const response = await http.post(url.href, JSON.stringify(results), {
    headers: { 'Content-Type': 'application/json' },
    signal: AbortSignal.timeout(timeoutMs),
  })
  return { mechanism: 'webhook', reference: null, statusCode: response.status }
}
