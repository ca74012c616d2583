import { randomBytes } from 'node:crypto'
import { WEBHOOK_EVENT_KINDS, type WebhookEventKind } from '@pf/schemas'

export type SampleEventKind = WebhookEventKind

/** Realistic `data` for each of the five kinds, as the developer portal's send-test-event fills it. */
export function sampleEventData(kind: SampleEventKind, now = new Date()): Record<string, unknown> {
  const ids = { sessionId: 'sess_test_1', applicationId: 'app_test_1', userId: 'user_test_1' }
  const at = (minutes: number) => new Date(now.getTime() + minutes * 60_000).toISOString()
  switch (kind) {
    case 'session.created':
      return {
        ...ids,
        orgId: 'org_test_1',
        email: 'ada@example.com',
        durationMinutes: 60,
        startTime: at(0),
        expiresAt: at(60),
        tokenCost: 120,
      }
    case 'session.extended':
      return {
        ...ids,
        extensionMinutes: 30,
        previousExpiresAt: at(60),
        newExpiresAt: at(90),
        tokenCost: 60,
        newBalance: 820,
      }
    case 'session.ended':
      return { ...ids, reason: 'expired', actualDurationMinutes: 60, totalTokensSpent: 170 }
    case 'purchase.completed':
      return {
        ...ids,
        purchaseId: 'pur_test_1',
        itemId: 'item_export',
        itemName: 'CSV export',
        tokenCost: 50,
        newBalance: 770,
        idempotencyKey: `idem_${randomBytes(6).toString('hex')}`,
      }
    case 'purchase.failed':
      return {
        ...ids,
        itemId: 'item_export',
        errorCode: 'INSUFFICIENT_BALANCE',
        errorMessage: 'Insufficient token balance',
        currentBalance: 5,
        required: 50,
      }
  }
}

/** A fresh `wh_` id, unique per delivery. */
export const newWebhookId = () => `wh_${Date.now().toString(36)}${randomBytes(6).toString('hex')}`

/**
 * A webhook envelope of a kind with realistic data: fresh `wh_` id, ISO 8601 UTC timestamp with milliseconds,
 * and any data field overridden.
 *
 * @example
 * createWebhookEvent('purchase.failed', { data: { required: 500 } })
 */
export function createWebhookEvent(
  kind: SampleEventKind | string,
  {
    data = {},
    webhookId = newWebhookId(),
    timestamp = new Date().toISOString(),
  }: { data?: Record<string, unknown>; webhookId?: string; timestamp?: string } = {},
) {
  const known = (WEBHOOK_EVENT_KINDS as readonly string[]).includes(kind)
  return {
    event: kind,
    timestamp,
    webhookId,
    data: { ...(known ? sampleEventData(kind as SampleEventKind) : {}), ...data },
  }
}
