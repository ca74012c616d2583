import { Readable } from 'node:stream'
import type { AxiosInstance } from 'axios'
import type { DeliveryResult, DeliverySpec } from '@pf/schemas'
import { injectTraceContext } from '@pf/service-kit'
import { OutboundUrlError } from '../errors'
import { checkOutboundUrl } from '../outbound/check-outbound-url'
import { jsonArrayChunks, type DeliveredRecords } from './json-array-chunks'

/**
 * Webhook delivery: POST of the records' JSON to `delivery.url`, no signature header (spec) but the active span's
 * `traceparent`, the body streamed
 * as the records are read (chunked transfer encoding: no length known before the end). The client's
 * time-out (`OUTBOUND_TIMEOUT_MS`) is the socket's idle time (axios sets it with `req.setTimeout`), so a long
 * body that keeps flowing is bounded by `signal` (`DELIVERY_TIMEOUT_MS`) instead. The target's status is
 * recorded, never checked; only a failure to deliver at all is an error.
 */
export async function deliverByWebhook(
  http: AxiosInstance,
  delivery: DeliverySpec | null | undefined,
  records: DeliveredRecords,
  { allowPrivate, allowedPorts }: { allowPrivate: boolean; allowedPorts?: readonly number[] },
  signal?: AbortSignal,
): Promise<DeliveryResult> {
  if (!delivery?.url) throw new OutboundUrlError('delivery.url is required for webhook delivery')
  const url = checkOutboundUrl(delivery.url, 'delivery.url', { allowPrivate, allowedPorts })
  const response = await http.post(url.href, Readable.from(jsonArrayChunks(records)), {
    headers: { 'Content-Type': 'application/json', ...injectTraceContext() },
    signal,
  })
  return { mechanism: 'webhook', reference: null, statusCode: response.status }
}
