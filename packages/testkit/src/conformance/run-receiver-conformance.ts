import { WEBHOOK_RESPONSE_BUDGET_MS } from '@pf/schemas'
import { SIGNATURE_HEADER, signWebhook } from '@pf/signing'
import { describeFetchError } from '../platform/describe-fetch-error'
import type { ConformanceReport, RuleResult } from './conformance-report'
import { conformanceEvents } from './conformance-events'
import { postRaw } from './post-raw'
import { RECEIVER_RULES, type ReceiverConformanceOptions, type ReceiverContext } from './receiver-rules'

export type { ReceiverConformanceOptions }
export { RECEIVER_RULES }

/**
 * Runs interface B's observable rules against a running receiver: each a PASS, FAIL (expected, got) or NOT
 * CHECKED (why). Its events are real, correctly signed where the rule says so, with `pf-conformance-` ids:
 * they reach the receiver's handlers.
 *
 * @example
 * const report = await runReceiverConformance({ url: 'http://127.0.0.1:3001/webhooks/pf', secret })
 */
export async function runReceiverConformance(
  options: ReceiverConformanceOptions,
): Promise<ConformanceReport> {
  const send = (body: string, signature: string | null) =>
    postRaw(
      options.url,
      body,
      {
        'content-type': 'application/json',
        ...(signature === null ? {} : { [SIGNATURE_HEADER]: signature }),
      },
      { ca: options.ca, timeoutMs: WEBHOOK_RESPONSE_BUDGET_MS },
    ).catch((error: unknown) => {
      throw new Error(`no answer from ${options.url}: ${describeFetchError(error)}`)
    })
  const event = conformanceEvents()
  let unauthorized: ReturnType<ReceiverContext['unauthorized']> | undefined
  const context: ReceiverContext = {
    send,
    event,
    secret: options.secret,
    options,
    unauthorized: () =>
      (unauthorized ??= (async () => {
        const wrongBody = JSON.stringify(event('session.created'))
        const wrong = await send(wrongBody, signWebhook(`pf-conformance-not-${options.secret}`, wrongBody))
        const missing = await send(JSON.stringify(event('session.created')), null)
        return { wrong, missing }
      })()),
  }
  const results: RuleResult[] = []
  for (const { rule, title, check } of RECEIVER_RULES) {
    try {
      results.push({ rule, title, ...(await check(context)) })
    } catch (error) {
      results.push({ rule, title, outcome: 'FAIL', detail: (error as Error).message })
    }
  }
  return { passed: results.every((r) => r.outcome !== 'FAIL'), results }
}
