import { request as httpRequest } from 'node:http'
import request from 'supertest'
import { signWebhook, SIGNATURE_HEADER } from '@pf/signing'
import { createMetricsRegistry, listen } from '@pf/service-kit'
import { createApp } from '../src/receiver/create-app'
import { makeEvent, memoryStore, receiverDefaults, SECRET, silentLogger } from './support'

// The receiver's answers at the door, in process (supertest) over an in-memory store: no socket, no Redis.
function app() {
  const store = memoryStore()
  const registry = createMetricsRegistry('t')
  return {
    store,
    registry,
    app: createApp({ config: receiverDefaults, deps: { store, logger: silentLogger, registry } }),
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

describe('the door: bounds and checks before the 200 (guide: every input has a bound)', () => {
  const nested = (levels: number) => `${'['.repeat(levels)}1${']'.repeat(levels)}`

  it('refuses an envelope nested 5000 levels deep in data with 400, counted as invalid, storing nothing', async () => {
    const { app: target, store, registry } = app()
    const unknown = { ...makeEvent('session.created'), event: 'session.paused' }
    const body = JSON.stringify(unknown).replace('"data":{', `"data":{"deep":${nested(5000)},`)
    const res = await post(target, body)
    expect(res.status).toBe(400)
    expect(res.body).toEqual({ error: 'webhook envelope nests deeper than 32 levels' })
    expect(store.stored).toEqual([])
    const metrics = await registry.metrics()
    expect(metrics).toMatch(/pf_webhooks_rejected_total\{reason="invalid_envelope"\} 1/)
  })

  it('accepts nesting up to 32 levels (an unknown kind, acknowledged and quarantined: rule 4)', async () => {
    const { app: target, store } = app()
    const unknown = { ...makeEvent('session.created'), event: 'session.paused' }
    const body = JSON.stringify(unknown).replace('"data":{', `"data":{"deep":${nested(30)},`)
    const res = await post(target, body)
    expect([res.status, res.body]).toEqual([200, { received: true }])
    expect(store.stored).toEqual([])
    expect(store.quarantined).toEqual([expect.objectContaining({ reason: 'invalid_data' })])
  })

  it('acknowledges a known kind whose data does not match the spec, quarantined with the errors (guide, "Refusals")', async () => {
    const { app: target, store, registry } = app()
    const event = makeEvent('session.created')
    const bad = { ...event, data: { ...(event.data as object), tokenCost: 'twelve' } }
    const res = await post(target, JSON.stringify(bad))
    expect([res.status, res.body]).toEqual([200, { received: true }])
    expect(store.stored).toEqual([])
    expect(store.quarantined).toEqual([
      { webhookId: event.webhookId, reason: 'invalid_data', detail: 'data.tokenCost must be integer' },
    ])
    expect(await registry.metrics()).toMatch(/pf_webhooks_quarantined_total\{reason="invalid_data"\} 1/)
  })

  it('refuses a webhookId longer than 200 characters with 400 {error}: nothing to deduplicate on', async () => {
    const { app: target, store } = app()
    const res = await post(
      target,
      JSON.stringify(makeEvent('session.ended', { webhookId: `wh_${'x'.repeat(198)}` })),
    )
    expect(res.status).toBe(400)
    expect(res.body).toEqual({ error: 'webhookId is longer than 200 characters' })
    expect(store.stored).toEqual([])
    expect(store.quarantined).toEqual([])
  })

  it('accepts a webhookId of exactly 200 characters', async () => {
    const { app: target, store } = app()
    const webhookId = `wh_${'x'.repeat(197)}`
    expect((await post(target, JSON.stringify(makeEvent('session.ended', { webhookId })))).status).toBe(200)
    expect(store.stored).toEqual([webhookId])
  })

  it('refuses a chunked body that grows past WEBHOOK_MAX_BODY_BYTES with 413 (no Content-Length to trust)', async () => {
    const { app: target, store } = app()
    const server = await listen(target, { port: 0, host: '127.0.0.1' })
    try {
      const status = await new Promise<number>((resolve, reject) => {
        const req = httpRequest(`${server.url}/webhooks/pf`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', [SIGNATURE_HEADER]: 'f'.repeat(64) },
        })
        req.on('response', (res) => resolve(res.statusCode ?? 0))
        req.on('error', reject)
        // Chunks of 16 KiB until the server answers.
        const chunk = Buffer.alloc(16 * 1024, 'x')
        const write = () => {
          if (req.destroyed) return
          if (req.write(chunk)) setImmediate(write)
          else req.once('drain', write)
        }
        write()
      })
      expect(status).toBe(413)
      expect(store.stored).toEqual([])
    } finally {
      await server.close()
    }
  })

  it('answers a GET on the webhook path through Express: 404 {error}', async () => {
    const { app: target } = app()
    const res = await request(target).get('/webhooks/pf')
    expect(res.status).toBe(404)
    expect(res.body).toEqual({ error: 'not found' })
  })
})
