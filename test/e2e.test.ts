import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { WEBHOOK_EVENT_KINDS } from '@pf/schemas'
import { createWebhookEvent, deliverWebhook, sendQuery } from '@pf/testkit/platform'
import { startRedis, type RedisHandle } from '@pf/testkit/redis'
import { SANDBOX, startSandbox, type Sandbox } from '../scripts/sandbox/start-sandbox'

// The README's quick start, as a test: the sandbox of `pnpm start` (on free ports), driven by pf-sim's functions.
const KINDS = WEBHOOK_EVENT_KINDS
let redis: RedisHandle
let sandbox: Sandbox
let record: string

beforeAll(async () => {
  const dir = mkdtempSync(join(tmpdir(), 'pf-e2e-'))
  record = join(dir, 'handled.log')
  const handlers = join(dir, 'handlers.cjs')
  // Records each call; an event whose orgId is "flaky" fails on its first attempt.
  writeFileSync(
    handlers,
    `const fs = require('fs')
const handle = async (event, { attempt }) => {
  fs.appendFileSync(${JSON.stringify(record)}, event.webhookId + ' ' + event.event + ' ' + attempt + '\\n')
  if (event.data.orgId === 'flaky' && attempt === 1) throw new Error('first attempt fails')
}
exports.handlers = Object.fromEntries(${JSON.stringify(KINDS)}.map((kind) => [kind, handle]))
`,
  )
  redis = await startRedis({ fallbackUrl: process.env.REDIS_URL })
  sandbox = await startSandbox({
    ports: 'ephemeral',
    idp: ['realm', 'tenant'],
    redisUrl: redis.url,
    dataDir: dir,
    handlersModule: handlers,
    queuePrefix: '{e2e}',
    env: { WEBHOOK_JOB_BACKOFF_MS: '100' },
  })
})
afterAll(async () => {
  await sandbox?.stop()
  await redis?.stop()
})

const handled = () => (existsSync(record) ? readFileSync(record, 'utf8').trim().split('\n') : [])
async function until(check: () => boolean, what: string) {
  const deadline = Date.now() + 15_000
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`)
    await new Promise((resolve) => setTimeout(resolve, 50))
  }
}

describe('end to end, through the sandbox', () => {
  it('every event kind sent like the platform reaches a handler exactly once; a replay is deduplicated', async () => {
    const events = KINDS.map((kind) => createWebhookEvent(kind))
    for (const event of events) {
      const outcome = await deliverWebhook({
        url: sandbox.urls.webhook,
        secret: SANDBOX.webhookSecret,
        body: event,
      })
      expect(outcome.state).toBe('delivered')
    }
    const replay = await deliverWebhook({
      url: sandbox.urls.webhook,
      secret: SANDBOX.webhookSecret,
      body: events[0]!,
    })
    expect(replay.state).toBe('delivered')
    await until(
      () => events.every((e) => handled().some((line) => line.startsWith(e.webhookId))),
      'the five events',
    )
    await new Promise((resolve) => setTimeout(resolve, 300))
    for (const event of events)
      expect(handled().filter((line) => line.startsWith(event.webhookId))).toEqual([
        `${event.webhookId} ${event.event} 1`,
      ])
  })

  it('a handler that fails is retried until it succeeds', async () => {
    const event = createWebhookEvent('session.created', { data: { orgId: 'flaky' } })
    expect(
      (await deliverWebhook({ url: sandbox.urls.webhook, secret: SANDBOX.webhookSecret, body: event })).state,
    ).toBe('delivered')
    await until(() => handled().includes(`${event.webhookId} session.created 2`), 'the retry')
  })

  it('a badly signed webhook is refused, and the platform keeps retrying on its schedule (time-scaled)', async () => {
    const states: string[] = []
    const outcome = await deliverWebhook({
      url: sandbox.urls.webhook,
      secret: SANDBOX.webhookSecret,
      body: createWebhookEvent('session.ended'),
      signature: 'f'.repeat(64),
      timeScale: 100_000,
      onAttempt: (attempt) => states.push(`${attempt.status} ${attempt.state}`),
    })
    expect(outcome.state).toBe('failed')
    expect(states).toEqual([...Array(5).fill('401 retry pending'), '401 failed'])
  })

  it.each(['inline', 'pf_s3_sync', 'webhook'] as const)(
    'a query delivered %s yields a verified callback and the results',
    async (mechanism) => {
      const outcome = await sendQuery({
        providerUrl: sandbox.urls.provider,
        apiKey: SANDBOX.apiKey,
        endpoint: 'sanctions',
        parameters: { name: 'haddad dmitri', threshold: 80 },
        mechanism,
        s3: { endpoint: sandbox.s3.endpoint, credentials: sandbox.s3.credentials },
      })
      expect(outcome.response.status).toBe(200)
      expect(outcome.callback).toMatchObject({
        signatureValid: true,
        body: { status: 'delivered', delivery: { mechanism } },
      })
      expect(outcome.results?.length).toBe(outcome.response.body.recordCount)
      expect(outcome.results?.[0]).toMatchObject({ name: 'HADDAD, Dmitri', score: 100 })
    },
  )

  it.each(['realm', 'tenant'] as const)(
    'a minted marketplace token is exchanged for %s-style identity-provider tokens',
    async (style) => {
      const token = sandbox.issuer.mint({
        userId: 'user_e2e',
        orgId: 'org_1',
        applicationId: SANDBOX.applicationId,
        email: 'ada@example.com',
      })
      const res = await fetch(`${sandbox.urls.exchanges[style]}/auth/exchange`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}` },
      })
      expect(res.status).toBe(200)
      expect(await res.json()).toMatchObject({
        token_type: 'Bearer',
        user: { pfUserId: 'user_e2e', roles: expect.arrayContaining(['pf-user']) },
      })
    },
  )
})
