import { randomBytes } from 'node:crypto'
import { createWebhookEvent } from '../platform/sample-events'

/**
 * Events whose ids say where they came from: `wh_pf-conformance-…` webhook ids (the spec's `wh_` prefix kept)
 * and `pf-conformance-…` session, user, application and purchase ids, for a receiver's logs and handlers.
 */
export function conformanceEvents() {
  const runId = randomBytes(4).toString('hex')
  let count = 0
  const ids = {
    sessionId: `pf-conformance-session-${runId}`,
    applicationId: 'pf-conformance-application',
    userId: 'pf-conformance-user',
  }
  return (kind: string, { timestamp }: { timestamp?: string } = {}) => {
    count += 1
    const extra = kind.startsWith('purchase.')
      ? {
          purchaseId: `pf-conformance-purchase-${runId}-${count}`,
          idempotencyKey: `pf-conformance-${runId}-${count}`,
        }
      : {}
    const event = createWebhookEvent(kind, {
      webhookId: `wh_pf-conformance-${runId}-${count}`,
      ...(timestamp ? { timestamp } : {}),
    })
    const data = kind === 'purchase.failed' ? { ...ids } : { ...ids, ...extra }
    return { ...event, data: { ...event.data, ...data } }
  }
}

const escapeFirstLetter = (text: string) =>
  JSON.stringify(text).replace(/[a-z]/i, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`)

/**
 * The same JSON value in bytes no serialiser writes: keys in reverse order, tabs, CRLF and spaces around `:`,
 * and a letter of every string and key as a `\u` escape. A receiver that verifies re-serialised JSON instead of
 * the raw bytes fails on it.
 */
export function unusualJson(value: unknown, depth = 0): string {
  const pad = '\t'.repeat(depth + 1)
  if (Array.isArray(value)) return `[ ${value.map((v) => unusualJson(v, depth + 1)).join(' ,\r\n ')} ]`
  if (value && typeof value === 'object')
    return `{\r\n${Object.entries(value)
      .reverse()
      .map(([key, inner]) => `${pad}${escapeFirstLetter(key)}  :\t${unusualJson(inner, depth + 1)}`)
      .join(' ,\n')}\n${'\t'.repeat(depth)}}  `
  return typeof value === 'string' ? escapeFirstLetter(value) : JSON.stringify(value)
}
