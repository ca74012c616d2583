import { join } from 'node:path'
import { createRealmClient, deriveRealmPassword, endUserSessions } from '@pf/idp-clients'
import { createCleanup, startServiceProcess } from '@pf/testkit'
import { startKeycloakEmulator, type KeycloakEmulator } from '@pf/testkit/emulators'
import { createWebhookEvent, deliverWebhook } from '@pf/testkit/platform'
import { startRedis } from '@pf/testkit/redis'
import { validateWebhookEvent, type HandlerContext, type WebhookEvent } from '@pf/schemas'
import { withSessionEnd } from '../src/worker/session-end-handler'
import { SECRET, uniquePrefix, waitFor } from './support'

// The ready-made session.ended handler and the owner's own one (issue 27), against the Keycloak emulator.
const CLIENT = { clientId: 'pf-exchange', secret: 'pf-exchange-secret' }
const cleanup = createCleanup(afterAll)
let keycloak: KeycloakEmulator
beforeAll(async () => {
  keycloak = cleanup.add(await startKeycloakEmulator({ clients: [CLIENT], unmanagedAttributes: true }), (k) =>
    k.stop(),
  )
})

const settings = () => ({
  idp: {
    style: 'realm' as const,
    realm: {
      serverUrl: keycloak.url,
      realm: keycloak.realm,
      clientId: CLIENT.clientId,
      clientSecret: CLIENT.secret,
      adminAuth: 'password' as const,
      adminUser: 'admin',
      adminPassword: 'admin',
      version: 'auto' as const,
    },
  },
  timeoutMs: 10_000,
})
const lines: { level: string; obj: object; msg?: string }[] = []
const context: HandlerContext = {
  jobId: '1',
  attempt: 1,
  maxAttempts: 3,
  late: false,
  logger: {
    info: (obj, msg) => void lines.push({ level: 'info', obj, msg }),
    warn: (obj, msg) => void lines.push({ level: 'warn', obj, msg }),
    error: (obj, msg) => void lines.push({ level: 'error', obj, msg }),
  },
  once: async (_key, effect) => (await effect(), true),
}
const sessionEnded = (userId: string, timestamp = new Date().toISOString()) => {
  const checked = validateWebhookEvent(createWebhookEvent('session.ended', { timestamp, data: { userId } }))
  if (!checked.ok) throw new Error(checked.error)
  return checked.value as WebhookEvent<'session.ended'>
}

describe("withSessionEnd: the ready-made session.ended handler in front of the owner's", () => {
  it('leaves the handlers as they are with IDP_SESSION_END off', () => {
    const handlers = { 'session.ended': async () => {} }
    expect(withSessionEnd(handlers, undefined)).toBe(handlers)
  })

  it("ends the user's sessions, then runs the owner's own session.ended handler; an unknown user is logged (warn)", async () => {
    const seen: string[] = []
    const handlers = withSessionEnd(
      { 'session.ended': async (event) => void seen.push(event.data.userId) },
      settings(),
    )
    await handlers['session.ended']!(sessionEnded('nobody'), context)
    expect(seen).toEqual(['nobody'])
    expect(lines.at(-1)).toMatchObject({
      level: 'warn',
      obj: { userId: 'nobody', outcome: 'unknown-user' },
    })
  })

  it("throws when the identity provider is down (the job is retried), before the owner's handler runs", async () => {
    const seen: string[] = []
    const handlers = withSessionEnd(
      { 'session.ended': async (event) => void seen.push(event.data.userId) },
      settings(),
    )
    keycloak.injectFault({ status: 503, times: 10 })
    await expect(handlers['session.ended']!(sessionEnded('u1'), context)).rejects.toMatchObject({
      code: 'ERR_IDP_UNAVAILABLE',
    })
    keycloak.clearFaults()
    expect(seen).toEqual([])
  })
})

// Issue 35: the schema accepts date-times Date.parse cannot read; session.ended threw on them until they
// dead-lettered. The handler reads the timestamp with the schema's own parser.
/** `ms` written at +01 with an hour-only offset (`2026-11-21T13:00:00.500+01`), a form the schema accepts. */
const atHourOnlyOffset = (ms: number) => new Date(ms + 3_600_000).toISOString().replace('Z', '+01')
const realm = () => createRealmClient({ ...settings().idp.realm, timeoutMs: 10_000 })
/** A user of ours with one session, as the exchange leaves it; resolves with its account and that session's start. */
async function signedInUser(userId: string) {
  const password = deriveRealmPassword(userId, CLIENT.secret)
  const client = realm()
  const user = { userId, orgId: 'org_1', applicationId: 'app_1', email: `${userId}@example.com` }
  const synced = await client.syncUser(user, password)
  await client.signIn(synced, password)
  return { synced, started: Math.max(...keycloak.sessionsOf(synced.id).map((s) => s.started)) }
}

describe('session.ended reads its timestamp as the schema accepts it (issue 35)', () => {
  it('ends the sessions started before a timestamp with an hour-only offset; a leap second years ago ends none', async () => {
    const { started } = await signedInUser('u-offset')
    const handlers = withSessionEnd({}, settings())
    await handlers['session.ended']!(sessionEnded('u-offset', atHourOnlyOffset(started + 500)), context)
    expect(lines.at(-1)).toMatchObject({ level: 'info', obj: { userId: 'u-offset', ended: 1, kept: 0 } })

    await signedInUser('u-offset')
    await handlers['session.ended']!(sessionEnded('u-offset', '2016-12-31T23:59:60Z'), context)
    expect(lines.at(-1)).toMatchObject({ level: 'info', obj: { userId: 'u-offset', ended: 0, kept: 1 } })
  })

  it("an owner's own handler calling endUserSessions with event.timestamp (the README's way) reads it alike", async () => {
    const { synced, started } = await signedInUser('u-own')
    const { timestamp } = sessionEnded('u-own', atHourOnlyOffset(started + 500))
    expect(await endUserSessions(realm(), { pfUserId: 'u-own', endedAt: timestamp })).toEqual({
      outcome: 'ended',
      accountId: synced.id,
      ended: 1,
      kept: 0,
      undecided: 0,
    })
  })

  it('through the built receiver and worker: a signed session.ended with an hour-only offset signs the user out', async () => {
    const redis = cleanup.add(await startRedis({ fallbackUrl: process.env.REDIS_URL }), (r) => r.stop())
    const dist = join(__dirname, '..', 'dist')
    const queue = {
      PATH: process.env.PATH,
      PORT: '0',
      REDIS_URL: redis.url,
      WEBHOOK_QUEUE_PREFIX: uniquePrefix(),
    }
    const receiver = cleanup.add(
      await startServiceProcess({
        entry: join(dist, 'main.js'),
        env: { ...queue, PF_WEBHOOK_SECRET: SECRET, WEBHOOK_JOB_BACKOFF_MS: '50' },
        readyMessage: 'webhook receiver listening',
      }),
      (s) => s.stop(),
    )
    const { realm: r } = settings().idp
    const worker = cleanup.add(
      await startServiceProcess({
        entry: join(dist, 'worker.js'),
        env: {
          ...queue,
          IDP_SESSION_END: 'on',
          IDP_STYLE: 'realm',
          REALM_SERVER_URL: r.serverUrl,
          REALM_NAME: r.realm,
          REALM_CLIENT_ID: r.clientId,
          REALM_CLIENT_SECRET: r.clientSecret,
          REALM_ADMIN_USER: r.adminUser,
          REALM_ADMIN_PASSWORD: r.adminPassword,
        },
        readyMessage: 'webhook worker running',
      }),
      (s) => s.stop(),
    )
    const { synced, started } = await signedInUser('u-built')
    const event = createWebhookEvent('session.ended', {
      timestamp: atHourOnlyOffset(started + 500),
      data: { userId: 'u-built' },
    })
    const { url, path } = receiver.readyLine as { url: string; path: string }
    expect((await deliverWebhook({ url: `${url}${path}`, secret: SECRET, body: event })).state).toBe(
      'delivered',
    )
    const ended = () =>
      worker.logs.filter(
        (l) => l.msg === 'identity-provider sessions ended' && l.webhookId === event.webhookId,
      )
    await waitFor(() => ended().length > 0, 20_000, 'the sessions to end')
    expect(ended()).toEqual([expect.objectContaining({ ended: 1, kept: 0 })])
    expect(keycloak.sessionsOf(synced.id)).toEqual([])
    expect(worker.logs.filter((l) => l.msg === 'handler failed: will retry')).toEqual([])
  })
})
