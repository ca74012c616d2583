import { createWebhookEvent } from '@pf/testkit/platform'
import { MAX_FUTURE_SKEW_MS, receiveEvent } from '../src/receiver/receive-event'
import { memoryStore } from './support'

const raw = (value: unknown) => Buffer.from(JSON.stringify(value))
const NOW = Date.parse('2026-11-21T12:00:00.000Z')
const HOUR = 3_600_000
const options = { maxAgeMs: 24 * HOUR, now: () => NOW }
const at = (ms: number) => new Date(ms).toISOString()

// The receiver's decisions without Redis or sockets, on an in-memory store and a fixed clock.
describe('receiveEvent (spec, "Receiver rules")', () => {
  it('stores a known event once and recognises its redelivery by webhookId (rule 3)', async () => {
    const store = memoryStore()
    const event = createWebhookEvent('session.created', { timestamp: at(NOW) })
    expect((await receiveEvent(raw(event), store, options)).outcome).toBe('accepted')
    expect((await receiveEvent(raw(event), store, options)).outcome).toBe('duplicate')
    expect(store.stored).toEqual([event.webhookId])
  })

  it('quarantines an unknown event kind as invalid_data: not processed (rule 4), and deduplicated', async () => {
    const store = memoryStore()
    const event = {
      ...createWebhookEvent('session.created', { timestamp: at(NOW) }),
      event: 'session.paused',
    }
    expect(await receiveEvent(raw(event), store, options)).toEqual({
      outcome: 'quarantined',
      webhookId: event.webhookId,
      event: 'session.paused',
      quarantined: { reason: 'invalid_data', detail: 'unknown event kind "session.paused"' },
    })
    expect((await receiveEvent(raw(event), store, options)).outcome).toBe('duplicate')
    expect(store.stored).toEqual([])
  })

  it.each([
    ['stale', NOW - 24 * HOUR - 1],
    ['future', NOW + MAX_FUTURE_SKEW_MS + 1],
  ])('quarantines an event whose signed timestamp is out of the window as %s', async (reason, time) => {
    const store = memoryStore()
    const event = createWebhookEvent('session.ended', { timestamp: at(time) })
    expect((await receiveEvent(raw(event), store, options)).quarantined?.reason).toBe(reason)
    expect(store.stored).toEqual([])
  })

  it('hands on an event at the edges of the window (exactly the maximum age, 5 minutes ahead)', async () => {
    const store = memoryStore()
    for (const time of [NOW - 24 * HOUR, NOW + MAX_FUTURE_SKEW_MS])
      expect(
        (
          await receiveEvent(
            raw(createWebhookEvent('session.ended', { timestamp: at(time) })),
            store,
            options,
          )
        ).outcome,
      ).toBe('accepted')
  })

  it('refuses a body that is not a JSON object, or has no webhookId, with ERR_INVALID_ENVELOPE', async () => {
    for (const body of [[1], { event: 'session.created' }])
      await expect(receiveEvent(raw(body), memoryStore(), options)).rejects.toMatchObject({
        code: 'ERR_INVALID_ENVELOPE',
      })
  })
})
