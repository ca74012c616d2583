import { loadTestVectors } from '@pf/testkit'
import {
  isKnownEventKind,
  validateWebhookEnvelope,
  validateWebhookEvent,
  WEBHOOK_EVENT_KINDS,
} from '@pf/schemas'

const envelope = (event: string, data: Record<string, unknown>) => ({
  event,
  timestamp: '2026-11-21T10:15:30.123Z',
  webhookId: 'wh_01HZX3K9M2',
  data,
})

const ids = { sessionId: 'sess_1', applicationId: 'app_1', userId: 'user_1' }
const samples = {
  'session.created': {
    ...ids,
    orgId: 'org_1',
    email: 'ada@example.com',
    durationMinutes: 60,
    startTime: '2026-11-21T10:15:30.000Z',
    expiresAt: '2026-11-21T11:15:30.000Z',
    tokenCost: 120,
  },
  'session.extended': {
    ...ids,
    extensionMinutes: 30,
    previousExpiresAt: '2026-11-21T11:15:30.000Z',
    newExpiresAt: '2026-11-21T11:45:30.000Z',
    tokenCost: 60,
    newBalance: 820,
  },
  'session.ended': { ...ids, reason: 'expired', actualDurationMinutes: 60, totalTokensSpent: 170 },
  'purchase.completed': {
    ...ids,
    purchaseId: 'pur_1',
    itemId: 'item_1',
    itemName: 'Export',
    tokenCost: 50,
    newBalance: 770,
    idempotencyKey: 'idem_1',
  },
  'purchase.failed': {
    ...ids,
    itemId: 'item_9',
    errorCode: 'INSUFFICIENT_BALANCE',
    errorMessage: 'Insufficient token balance',
    currentBalance: 5,
    required: 50,
  },
}

describe('validateWebhookEvent (spec: "Webhook envelope" and the data of each event)', () => {
  it.each(WEBHOOK_EVENT_KINDS)('accepts a complete %s event', (kind) => {
    const result = validateWebhookEvent(envelope(kind, samples[kind]))
    expect(result).toMatchObject({ ok: true, value: { event: kind } })
  })

  it.each(loadTestVectors().webhook)('accepts the signed test-vector body $value', ({ body }) => {
    expect(validateWebhookEvent(JSON.parse(body))).toMatchObject({ ok: true })
  })

  it('names the missing data field with its path', () => {
    const { tokenCost: _omitted, ...data } = samples['session.created']
    expect(validateWebhookEvent(envelope('session.created', data))).toEqual({
      ok: false,
      error: 'data.tokenCost is required',
    })
  })

  it('lets unknown data fields flow through', () => {
    expect(
      validateWebhookEvent(envelope('session.ended', { ...samples['session.ended'], note: 'x' })).ok,
    ).toBe(true)
  })

  it('rejects a webhookId without the wh_ prefix and a timestamp that is not ISO 8601', () => {
    const bad = {
      ...envelope('session.ended', samples['session.ended']),
      webhookId: 'abc',
      timestamp: 'yesterday',
    }
    const result = validateWebhookEvent(bad)
    expect(result.ok).toBe(false)
    expect(!result.ok && result.error).toMatch(/timestamp must match format "date-time"/)
    expect(!result.ok && result.error).toMatch(/webhookId must match pattern/)
  })

  it('treats an unknown kind as a valid envelope but not a known event (receivers ignore it with a warning)', () => {
    const unknown = envelope('session.paused', {})
    expect(validateWebhookEnvelope(unknown).ok).toBe(true)
    expect(isKnownEventKind('session.paused')).toBe(false)
    expect(validateWebhookEvent(unknown)).toEqual({ ok: false, error: 'unknown event kind "session.paused"' })
  })
})
