import { createWebhookEvent } from '@pf/testkit/platform'
import { receiveEvent } from '../src/core/receive-event'
import { memoryStore } from './support'

const raw = (value: unknown) => Buffer.from(JSON.stringify(value))

// The receiver's decisions without Redis or sockets, on an in-memory store.
describe('receiveEvent (spec, "Receiver rules")', () => {
  it('stores a known event once and recognises its redelivery by webhookId (rule 3)', async () => {
    const store = memoryStore()
    const event = createWebhookEvent('session.created')
    expect((await receiveEvent(raw(event), store)).outcome).toBe('accepted')
    expect((await receiveEvent(raw(event), store)).outcome).toBe('duplicate')
    expect(store.stored).toEqual([event.webhookId])
  })

  it('ignores an unknown event kind without storing it (rule 4)', async () => {
    const store = memoryStore()
    const event = { ...createWebhookEvent('session.created'), event: 'session.paused' }
    expect((await receiveEvent(raw(event), store)).outcome).toBe('ignored')
    expect(store.stored).toEqual([])
  })

  it('refuses a body that is not a webhook envelope with ERR_INVALID_ENVELOPE', async () => {
    await expect(receiveEvent(raw({ event: 'session.created' }), memoryStore())).rejects.toMatchObject({
      code: 'ERR_INVALID_ENVELOPE',
    })
  })
})
