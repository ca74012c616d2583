import type { ClientRequest } from 'node:http'
import { Readable } from 'node:stream'
import type { AxiosInstance } from 'axios'
import type { DeliveryResult, DeliverySpec } from '@pf/schemas'
import { injectTraceContext } from '@pf/service-kit'
import { OutboundUrlError } from './errors'
import { checkOutboundUrl } from './check-outbound-url'
import { jsonArrayChunks, type DeliveredRecords } from './json-array-chunks'

export interface WebhookDeliveryOptions {
  allowPrivate: boolean
  allowedPorts?: readonly number[]
  /** `outbound.timeoutMs`: longest the socket may accept nothing, before the answer and after it. */
  idleTimeoutMs: number
}

/**
 * Webhook delivery: POST of the records' JSON to `delivery.url`, no signature header (spec) but the active span's
 * `traceparent`, the body streamed as the records are read (chunked transfer encoding: no length known before
 * the end). The target's status is recorded, never checked, but the delivery is done only when the body was
 * sent whole (`bodySent`): a target may answer before it read the body, and axios resolves on the answer alone
 * (the records' read, ended by the caller then, cut the array short while it still looked whole). The socket's
 * idle time is `idleTimeoutMs` (axios sets it with `req.setTimeout` until the answer, `bodySent` after), so a
 * long body that keeps flowing is bounded by `signal` (`delivery.timeoutMs`) instead.
 */
export async function deliverByWebhook(
  http: AxiosInstance,
  delivery: DeliverySpec | null | undefined,
  records: DeliveredRecords,
  { allowPrivate, allowedPorts, idleTimeoutMs }: WebhookDeliveryOptions,
  signal?: AbortSignal,
): Promise<DeliveryResult> {
  if (!delivery?.url) throw new OutboundUrlError('delivery.url is required for webhook delivery')
  const url = checkOutboundUrl(delivery.url, 'delivery.url', { allowPrivate, allowedPorts })
  const body = Readable.from(jsonArrayChunks(records))
  try {
    const response = await http.post(url.href, body, {
      headers: { 'Content-Type': 'application/json', ...injectTraceContext() },
      signal,
    })
    // axios's `request` is the last ClientRequest in Node (no redirects are followed: the only one).
    await bodySent(response.request as ClientRequest, idleTimeoutMs, signal)
    return { mechanism: 'webhook', reference: null, statusCode: response.status }
  } catch (error) {
    body.destroy()
    throw error
  }
}

/**
 * Resolves once the request's body was written whole (`finish`: its last chunk handed to the socket), whatever
 * the target answered meanwhile; rejects, ending the request, when it cannot be: the connection closed or
 * failed first, the socket accepted nothing for `idleTimeoutMs`, or `signal` ended the delivery. Once an answer
 * is complete, Node passes neither the socket's `drain` on to the request (`socketOnData` in _http_client.js
 * removes `ondrain`: a body still being written would wait for it forever) nor its time-out
 * (`ClientRequest.setTimeout` does nothing once `_ended`): both are taken from the socket here.
 */
function bodySent(req: ClientRequest, idleTimeoutMs: number, signal?: AbortSignal): Promise<void> {
  if (req.writableFinished) return Promise.resolve()
  const { socket } = req
  return new Promise((resolve, reject) => {
    const settle = (error?: Error) => {
      req.off('finish', onFinish)
      req.off('close', onClose)
      req.off('error', settle)
      socket?.off('drain', onDrain)
      socket?.off('timeout', onTimeout)
      signal?.removeEventListener('abort', onAbort)
      if (!error) return resolve()
      req.destroy(error)
      reject(error)
    }
    const onFinish = () => settle()
    const onClose = () =>
      settle(new Error('the webhook target closed the connection before the body was sent whole'))
    const onTimeout = () => settle(new Error(`the webhook target read nothing for ${idleTimeoutMs} ms`))
    const onAbort = () => settle(signal?.reason as Error)
    const onDrain = () => {
      if (req.writableNeedDrain) req.emit('drain')
    }
    if (req.destroyed || !socket) return onClose()
    if (signal?.aborted) return onAbort()
    req.once('finish', onFinish)
    req.once('close', onClose)
    req.once('error', settle)
    socket.on('drain', onDrain)
    socket.setTimeout(idleTimeoutMs)
    socket.on('timeout', onTimeout)
    signal?.addEventListener('abort', onAbort)
    // The socket may have drained before this listened.
    if (!socket.writableNeedDrain) onDrain()
  })
}
