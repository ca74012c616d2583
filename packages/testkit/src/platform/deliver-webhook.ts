import { PLATFORM_RETRY_SCHEDULE_MS, WEBHOOK_RESPONSE_BUDGET_MS } from '@pf/schemas'
import { SIGNATURE_HEADER, signWebhook } from '@pf/signing'
import { describeFetchError } from './describe-fetch-error'

/** The platform's retries after a failed delivery (spec, "Webhook delivery"), as @pf/schemas states them. */
export const WEBHOOK_RETRY_SCHEDULE_MS: readonly number[] = PLATFORM_RETRY_SCHEDULE_MS
export { WEBHOOK_RESPONSE_BUDGET_MS }

export type DeliveryState = 'attempted' | 'delivered' | 'retry pending' | 'failed'

export interface DeliveryAttempt {
  attempt: number
  at: string
  status: number | null
  /** The answer's body when it was not 2xx (at most 2,000 characters), so a refusal says why. */
  body?: string
  /** Why no answer came: `ECONNREFUSED 127.0.0.1:3009`, `no answer within 5 s`. */
  error?: string
  state: DeliveryState
  /** Milliseconds until the next try (already scaled), when a retry is pending. */
  nextRetryInMs?: number
}

export interface DeliverWebhookOptions {
  url: string
  secret: string
  /** The exact body: an object is serialised once, and those bytes are signed and sent. */
  body: string | object
  /** Send this signature instead of the right one (to test receivers). */
  signature?: string
  /** Divides the retry schedule: 1 is real time, 3600 turns an hour into a second. */
  timeScale?: number
  /** How many attempts at most, 1 to 6 (default 6: the first try and the platform's five retries). */
  attempts?: number
  /** Called after each attempt, to show the states as the schedule runs. */
  onAttempt?: (attempt: DeliveryAttempt) => void
  signal?: AbortSignal
}

/**
 * Delivers a webhook like the platform: POST with `X-PF-Signature` (bare hex HMAC-SHA256 of the body); a 2xx
 * within 5 s is `delivered`; otherwise retries on the schedule, and `failed` after the fifth retry (or after
 * `attempts` tries).
 */
export async function deliverWebhook({
  url,
  secret,
  body,
  signature,
  timeScale = 1,
  attempts: maxAttempts = WEBHOOK_RETRY_SCHEDULE_MS.length + 1,
  onAttempt,
  signal,
}: DeliverWebhookOptions) {
  const raw = typeof body === 'string' ? body : JSON.stringify(body)
  const attempts: DeliveryAttempt[] = []
  const last = Math.min(maxAttempts, WEBHOOK_RETRY_SCHEDULE_MS.length + 1)
  for (let attempt = 1; attempt <= last; attempt += 1) {
    let status: number | null = null
    let answer: string | undefined
    let error: string | undefined
    try {
      const res = await fetch(url, {
        method: 'POST',
        body: raw,
        headers: {
          'content-type': 'application/json',
          [SIGNATURE_HEADER]: signature ?? signWebhook(secret, raw),
        },
        signal: AbortSignal.timeout(WEBHOOK_RESPONSE_BUDGET_MS),
      })
      status = res.status
      const text = await res.text()
      if (!res.ok) answer = text.slice(0, 2000)
    } catch (cause) {
      error = (cause as Error).name === 'TimeoutError' ? 'no answer within 5 s' : describeFetchError(cause)
    }
    const delivered = status !== null && status >= 200 && status < 300
    const delay = attempt < last ? WEBHOOK_RETRY_SCHEDULE_MS[attempt - 1] : undefined
    const state: DeliveryState = delivered ? 'delivered' : delay === undefined ? 'failed' : 'retry pending'
    const record: DeliveryAttempt = {
      attempt,
      at: new Date().toISOString(),
      status,
      ...(answer !== undefined ? { body: answer } : {}),
      ...(error ? { error } : {}),
      state,
      ...(state === 'retry pending' ? { nextRetryInMs: Math.round((delay as number) / timeScale) } : {}),
    }
    attempts.push(record)
    onAttempt?.(record)
    if (state !== 'retry pending') return { state, attempts }
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(resolve, record.nextRetryInMs)
      signal?.addEventListener('abort', () => {
        clearTimeout(timer)
        reject(signal.reason)
      })
    })
  }
  return { state: 'failed' as const, attempts }
}
