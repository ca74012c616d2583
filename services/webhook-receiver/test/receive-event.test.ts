import { createWebhookEvent } from '@pf/testkit/platform'
import type { AcceptOutcome, EventStore } from '../src/core/event-store'
import { receiveEvent } from '../src/core/receive-event'

// The receiver's decisions without Redis or sockets: an in-memory store that dedups by webhookId.
function memoryStore(): EventStore & { stored: string[] } {
  const stored: string[] = []
  return {
    stored,
    async accept(event): Promise<AcceptOutcome> {
      if (stored.includes(event.webhookId)) return 'duplicate'
      stored.push(event.webhookId)
      return 'accepted'
    },
    ping: async () => {},
    counts: async () => ({}),
    close: async () => {},
  }
}

describe('receiveEvent (spec, "Receiver rules")', () => {
  it('stores a known event once and recognises its redelivery by webhookId (rule 3)', async () => {
    const store = memoryStore()
    const event = createWebhookEvent('session.created')
    expect((await receiveEvent(event, store)).outcome).toBe('accepted')
    expect((await receiveEvent(event, store)).outcome).toBe('duplicate')
    expect(store.stored).toEqual([event.webhookId])
  })

  it('ignores an unknown event kind without storing it (rule 4)', async () => {
    const store = memoryStore()
    const event = { ...createWebhookEvent('session.created'), event: 'session.paused' }
    expect((await receiveEvent(event, store)).outcome).toBe('ignored')
    expect(store.stored).toEqual([])
  })

  it('refuses a body that is not a webhook envelope with ERR_INVALID_ENVELOPE', async () => {
    await expect(receiveEvent({ event: 'session.created' }, memoryStore())).rejects.toMatchObject({
      code: 'ERR_INVALID_ENVELOPE',
    })
  })
})
