import { signWebhook, SIGNATURE_HEADER } from '@pf/signing'
import { createWebhookEvent } from '@pf/testkit/platform'

/** The webhook secret the receiver benches give the receiver and sign with. */
export const SECRET = 'whsec_bench_secret'

/** A fresh, signed session.created per request: every request is a new event, none is a duplicate. */
export function nextEvent() {
  const body = JSON.stringify(createWebhookEvent('session.created'))
  return {
    body,
    headers: { 'content-type': 'application/json', [SIGNATURE_HEADER]: signWebhook(SECRET, body) },
  }
}
