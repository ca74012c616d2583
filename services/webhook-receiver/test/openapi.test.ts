import { createResponseValidator } from '@pf/testkit/openapi'
import { signWebhook } from '@pf/signing'
import { createCleanup } from '@pf/testkit'
import { startRedis, type RedisHandle } from '@pf/testkit/redis'
import {
  makeEvent,
  postSigned,
  SECRET,
  startReceiver,
  uniquePrefix,
  waitFor,
  type StartedReceiver,
} from './support'

let redis: RedisHandle
let receiver: StartedReceiver
let conforms: ReturnType<typeof createResponseValidator>
const cleanup = createCleanup(afterAll)
beforeAll(async () => {
  redis = cleanup.add(await startRedis({ fallbackUrl: process.env.REDIS_URL }), (r) => r.stop())
  receiver = cleanup.add(await startReceiver(redis.url, uniquePrefix()), (r) => r.stop())
  conforms = createResponseValidator(
    (await (await fetch(`${receiver.url}/openapi.json`)).json()) as Record<string, unknown>,
  )
})

describe('GET /openapi.json: every answer of the receiver is as documented (OpenAPI 3.1)', () => {
  const cases: [string, () => Promise<Response>, number][] = [
    ['200 stored', () => postSigned(receiver.webhookUrl, JSON.stringify(makeEvent('session.created'))), 200],
    ['400 not an envelope', () => postSigned(receiver.webhookUrl, '{"a":1}'), 400],
    [
      '401 wrong signature',
      () => postSigned(receiver.webhookUrl, '{}', { signature: signWebhook('other', '{}') }),
      401,
    ],
    [
      '413 too large',
      () =>
        postSigned(receiver.webhookUrl, JSON.stringify({ pad: 'x'.repeat(70 * 1024) }), { secret: SECRET }),
      413,
    ],
  ]
  it.each(cases)('%s', async (_name, send, status) => {
    const res = await send()
    expect(res.status).toBe(status)
    expect(conforms('post', '/webhooks/pf', status, await res.json())).toEqual([])
  })

  it('answers 503 as documented when Redis is down', async () => {
    if (!redis.isPrivate) return
    await redis.stop()
    const res = await postSigned(receiver.webhookUrl, JSON.stringify(makeEvent('session.ended')))
    expect(res.status).toBe(503)
    expect(conforms('post', '/webhooks/pf', 503, await res.json())).toEqual([])
    await redis.start()
    await waitFor(
      async () =>
        (await postSigned(receiver.webhookUrl, JSON.stringify(makeEvent('session.ended')))).status === 200,
      15_000,
      'Redis back',
    )
  })
})

describe('GET /openapi.json: the ops endpoints answer as documented ({status} only)', () => {
  it.each(['/health', '/ready'])('%s', async (path) => {
    const res = await fetch(`${receiver.url}${path}`)
    expect(res.status).toBe(200)
    expect(conforms('get', path, 200, await res.json())).toEqual([])
  })
})
