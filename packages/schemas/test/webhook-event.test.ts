import { loadTestVectors } from '@pf/testkit'
import { sampleEventData } from '@pf/testkit/platform'
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

const samples = Object.fromEntries(
  WEBHOOK_EVENT_KINDS.map((kind) => [kind, sampleEventData(kind)]),
) as Record<(typeof WEBHOOK_EVENT_KINDS)[number], Record<string, unknown>>

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
