import type { AxiosInstance } from 'axios'
import { injectTraceContext, type Logger } from '@pf/service-kit'
import { serializeCallbackPayload, type CallbackPayload } from '@pf/schemas'
import { SIGNATURE_HEADER, signCallback } from '@pf/signing'

export interface CallbackTarget {
  queryId: string
  callbackUrl: string
  callbackToken?: string | null
}

/**
 * Posts the status callback: the payload's JSON with null fields omitted, signed `sha256=<hex>` over those
 * exact bytes with the envelope's `callbackToken`, with the active span's `traceparent`. The response is not examined; a failure to post rejects
 * (the query flow logs it and answers as it would have).
 */
export async function postCallback(
  http: AxiosInstance,
  target: CallbackTarget,
  payload: CallbackPayload,
  { logger, timeoutMs }: { logger: Logger; timeoutMs: number },
): Promise<void> {
  const body = serializeCallbackPayload(payload)
  // The callback names the query's trace (W3C traceparent), so the platform can join it to its own.
  const headers: Record<string, string> = { 'Content-Type': 'application/json', ...injectTraceContext() }
  if (target.callbackToken) headers[SIGNATURE_HEADER] = signCallback(target.callbackToken, body)
  else logger.warn({ queryId: target.queryId }, 'envelope has no callbackToken: callback sent unsigned')
  const response = await http.post(target.callbackUrl, body, {
    headers,
    signal: AbortSignal.timeout(timeoutMs),
  })
  logger.debug({ queryId: target.queryId, status: response.status }, 'callback posted')
}
