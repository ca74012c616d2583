import request from 'supertest'
import { signWebhook, SIGNATURE_HEADER } from '@pf/signing'
import { createMetricsRegistry } from '@pf/service-kit'
import { createApp } from '../src/create-app'
import { makeEvent, memoryStore, receiverDefaults, SECRET, silentLogger } from './support'

// The receiver's answers at the door, in process (supertest) over an in-memory store: no socket, no Redis.
function app() {
  const store = memoryStore()
  return {
    store,
    app: createApp({
      config: receiverDefaults,
      store,
      logger: silentLogger,
      registry: createMetricsRegistry('t'),
    }),
  }
}

const post = (target: ReturnType<typeof app>['app'], body: string, signature = signWebhook(SECRET, body)) =>
  request(target)
    .post('/webhooks/pf')
    .set('Content-Type', 'application/json')
    .set(SIGNATURE_HEADER, signature)
    .send(body)

describe('receiver routes, in process (spec, "Receiver rules")', () => {
  it('answers 200 {received: true} for a verified event and stores it once', async () => {
    const { app: target, store } = app()
    const body = JSON.stringify(makeEvent('session.created'))
    expect((await post(target, body)).body).toEqual({ received: true })
    expect((await post(target, body)).body).toEqual({ received: true })
    expect(store.stored).toHaveLength(1)
  })

  it('answers 401 {error} for a bad signature and stores nothing (rule 1)', async () => {
    const { app: target, store } = app()
    const res = await post(target, JSON.stringify(makeEvent('session.created')), 'f'.repeat(64))
    expect(res.status).toBe(401)
    expect(res.body).toEqual({ error: expect.any(String) })
    expect(store.stored).toEqual([])
  })

  it('answers 413 {error} past WEBHOOK_MAX_BODY_BYTES', async () => {
    const { app: target } = app()
    const res = await post(target, JSON.stringify({ pad: 'x'.repeat(receiverDefaults.maxBodyBytes) }))
    expect(res.status).toBe(413)
  })
})
