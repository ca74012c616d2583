import type { AxiosInstance } from 'axios'
import type { Counter } from 'prom-client'
import type { Logger } from '@pf/service-kit'
import { serializeCallbackPayload, type CallbackPayload } from '@pf/schemas'
import { SIGNATURE_HEADER, signCallback } from '@pf/signing'

export interface CallbackTarget {
  queryId: string
  callbackUrl: string
  callbackToken?: string | null
}

/**
 * Posts the status callback: the payload's JSON with null fields omitted, signed `sha256=<hex>` over those
 * exact bytes with the envelope's `callbackToken`. The response is not examined, and a failure is logged and
 * swallowed: it must never change the search's HTTP answer (spec, "Status callback").
 */
export async function postCallback(
  http: AxiosInstance,
  target: CallbackTarget,
  payload: CallbackPayload,
  { logger, timeoutMs, counter }: { logger: Logger; timeoutMs: number; counter: Counter<'outcome'> },
): Promise<void> {
  const body = serializeCallbackPayload(payload)
  const headers: Record<string, string> = { 'Content-Type': 'application/json' }
  if (target.callbackToken) headers[SIGNATURE_HEADER] = signCallback(target.callbackToken, body)
  else logger.warn({ queryId: target.queryId }, 'envelope has no callbackToken: callback sent unsigned')
  try {
    const response = await http.post(target.callbackUrl, body, {
      headers,
      signal: AbortSignal.timeout(timeoutMs),
    })
    counter.inc({ outcome: 'sent' })
    logger.debug({ queryId: target.queryId, status: response.status }, 'callback posted')
  } catch (error) {
    counter.inc({ outcome: 'failed' })
    logger.warn(
      { queryId: target.queryId, err: { message: (error as Error).message } },
      'callback could not be posted',
    )
  }
}
