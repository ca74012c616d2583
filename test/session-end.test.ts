import { existsSync } from 'node:fs'
import { join } from 'node:path'
import { createCleanup, startServiceProcess, type ServiceProcess } from '@pf/testkit'
import { startAuth0Emulator, startKeycloakEmulator, type EmulatorControls } from '@pf/testkit/emulators'
import { createWebhookEvent, deliverWebhook, startMarketplaceIssuer } from '@pf/testkit/platform'
import { startRedis, type RedisHandle } from '@pf/testkit/redis'

// Issue 27 end to end through the built processes, both identity-provider styles: the exchange gives a user
// tokens; a signed `session.ended` reaches the receiver; the worker (IDP_SESSION_END=on) ends what started
// at or before the event's timestamp, so the emulator's token endpoint refuses the earlier refresh token while
// a session started after the event still refreshes. Off, nothing happens.
const root = join(__dirname, '..')
const exchangeMain = join(root, 'services/auth-exchange/dist/main.js')
const receiverMain = join(root, 'services/webhook-receiver/dist/main.js')
const workerMain = join(root, 'services/webhook-receiver/dist/worker.js')
const SECRET = 'whsec_session_end_test'
const CLIENT = { clientId: 'pf-exchange', secret: 'pf-exchange-secret-of-the-session-end-test' }

let redis: RedisHandle
const suite = createCleanup(afterAll)
beforeAll(async () => {
  for (const entry of [exchangeMain, receiverMain, workerMain])
    if (!existsSync(entry)) throw new Error(`${entry} is missing: run \`pnpm build\` (pnpm test does)`)
  redis = suite.add(await startRedis({ fallbackUrl: process.env.REDIS_URL }), (r) => r.stop())
})

/** Keycloak keeps a session's start in whole seconds: wait until the next one begins. */
const nextSecond = () => new Promise((resolve) => setTimeout(resolve, 1000 - (Date.now() % 1000) + 5))
const waitFor = async (check: () => boolean | Promise<boolean>, what: string) => {
  for (let i = 0; i < 800; i += 1) {
    if (await check()) return
    await new Promise((resolve) => setTimeout(resolve, 25))
  }
  throw new Error(`timed out waiting for ${what}`)
}
const logged = (service: ServiceProcess, msg: string, webhookId: string) =>
  service.logs.filter((line) => line.msg === msg && line.webhookId === webhookId)

/** Keycloak's emulator rotates refresh tokens (Auth0's keeps them): the next grant uses the newest one. */
const grantResult = async (token: string, res: Response) => ({
  status: res.status,
  next: ((await res.json()) as { refresh_token?: string }).refresh_token ?? token,
})

interface Style {
  emulator: EmulatorControls & { stop(): Promise<void> }
  /** The identity provider's settings, as the exchange and the worker read them. */
  env: Record<string, string>
  /** A refresh-token grant at the emulator's token endpoint: its status, and the refresh token to use next. */
  refresh(token: string): Promise<{ status: number; next: string }>
  refused: number
  /** The admin call the worker makes first for a user's sessions (where a fault is injected). */
  sessionCall: (path: string) => boolean
}

async function realmStyle(): Promise<Style> {
  const keycloak = await startKeycloakEmulator({ clients: [CLIENT], unmanagedAttributes: true })
  return {
    emulator: keycloak,
    env: {
      IDP_STYLE: 'realm',
      REALM_SERVER_URL: keycloak.url,
      REALM_NAME: keycloak.realm,
      REALM_CLIENT_ID: CLIENT.clientId,
      REALM_CLIENT_SECRET: CLIENT.secret,
      REALM_ADMIN_USER: 'admin',
      REALM_ADMIN_PASSWORD: 'admin',
    },
    refresh: async (token) =>
      grantResult(
        token,
        await fetch(`${keycloak.url}/realms/${keycloak.realm}/protocol/openid-connect/token`, {
          method: 'POST',
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
          body: new URLSearchParams({
            grant_type: 'refresh_token',
            refresh_token: token,
            client_id: CLIENT.clientId,
            client_secret: CLIENT.secret,
          }),
        }),
      ),
    refused: 400,
    sessionCall: (path) => /\/users\/[^/]+\/sessions$/.test(path),
  }
}

async function tenantStyle(): Promise<Style> {
  const auth0 = await startAuth0Emulator({
    clients: [{ clientId: CLIENT.clientId, clientSecret: CLIENT.secret }],
    searchLagMs: 0,
  })
  return {
    emulator: auth0,
    env: {
      IDP_STYLE: 'tenant',
      TENANT_DOMAIN: auth0.domain,
      TENANT_BASE_URL: auth0.url,
      TENANT_CLIENT_ID: CLIENT.clientId,
      TENANT_CLIENT_SECRET: CLIENT.secret,
      TENANT_CLAIM_NAMESPACE: auth0.namespace,
    },
    refresh: async (token) =>
      grantResult(
        token,
        await fetch(`${auth0.url}/oauth/token`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({
            grant_type: 'refresh_token',
            refresh_token: token,
            client_id: CLIENT.clientId,
            client_secret: CLIENT.secret,
          }),
        }),
      ),
    refused: 403,
    sessionCall: (path) => /\/api\/v2\/users\/[^/]+\/refresh-tokens$/.test(path),
  }
}

describe.each([
  ['realm (Keycloak)', realmStyle],
  ['tenant (Auth0)', tenantStyle],
])('session.ended signs the user out at the identity provider, %s', (_name, startStyle) => {
  const cleanup = createCleanup(afterAll)
  let style: Style
  let exchangeUrl: string
  let mint: (userId: string) => string

  beforeAll(async () => {
    style = await startStyle()
    cleanup.add(style.emulator, (e) => e.stop())
    const issuer = cleanup.add(await startMarketplaceIssuer(), (i) => i.stop())
    mint = (userId) => issuer.mint({ userId, orgId: 'org_1', applicationId: 'app_1' })
    const exchange = await startServiceProcess({
      entry: exchangeMain,
      env: {
        PATH: process.env.PATH,
        PORT: '0',
        PF_APPLICATION_ID: 'app_1',
        MARKETPLACE_JWKS_URL: issuer.jwksUrl,
        MARKETPLACE_ISSUER: issuer.issuer,
        ...style.env,
      },
      readyMessage: 'auth exchange listening',
    })
    cleanup.add(exchange, (s) => s.stop('SIGKILL'))
    exchangeUrl = (exchange.readyLine as { url: string }).url
  })

  /** The receiver and a worker on a queue of their own. */
  async function startPipeline(prefix: string, workerEnv: Record<string, string>) {
    const queue = { PATH: process.env.PATH, PORT: '0', REDIS_URL: redis.url, WEBHOOK_QUEUE_PREFIX: prefix }
    const receiver = await startServiceProcess({
      entry: receiverMain,
      env: { ...queue, PF_WEBHOOK_SECRET: SECRET, WEBHOOK_JOB_BACKOFF_MS: '100' },
      readyMessage: 'webhook receiver listening',
    })
    cleanup.add(receiver, (s) => s.stop('SIGKILL'))
    const worker = await startServiceProcess({
      entry: workerMain,
      env: { ...queue, ...workerEnv },
      readyMessage: 'webhook worker running',
    })
    cleanup.add(worker, (s) => s.stop('SIGKILL'))
    const { url, path } = receiver.readyLine as { url: string; path: string }
    return { worker, webhookUrl: `${url}${path}` }
  }

  const exchangeTokens = async (userId: string) => {
    const res = await fetch(`${exchangeUrl}/auth/exchange`, {
      method: 'POST',
      headers: { authorization: `Bearer ${mint(userId)}` },
    })
    expect(res.status).toBe(200)
    return ((await res.json()) as { refresh_token: string }).refresh_token
  }
  const ended = (userId: string, timestamp: string, webhookId?: string) =>
    createWebhookEvent('session.ended', {
      timestamp,
      ...(webhookId ? { webhookId } : {}),
      data: { userId },
    })
  const deliver = async (webhookUrl: string, event: object) =>
    (await deliverWebhook({ url: webhookUrl, secret: SECRET, body: event })).state

  it('with IDP_SESSION_END off (the default), nothing happens at the identity provider', async () => {
    const { worker, webhookUrl } = await startPipeline('{se-off}', {})
    const token = await exchangeTokens('u-off')
    const event = ended('u-off', new Date().toISOString())
    expect(await deliver(webhookUrl, event)).toBe('delivered')
    await waitFor(() => logged(worker, 'session.ended', event.webhookId).length > 0, 'the default handler')
    expect((await style.refresh(token)).status).toBe(200)
  })

  it('ends the sessions started at or before the event, keeps a later one; duplicates, retries and a 503 end nothing more', async () => {
    const { worker, webhookUrl } = await startPipeline('{se-on}', { IDP_SESSION_END: 'on', ...style.env })
    const before = await exchangeTokens('u-1')
    const timestamp = new Date().toISOString()
    await nextSecond()
    let after = await exchangeTokens('u-1')

    const event = ended('u-1', timestamp)
    expect(await deliver(webhookUrl, event)).toBe('delivered')
    await waitFor(
      () => logged(worker, 'identity-provider sessions ended', event.webhookId).length > 0,
      'the end',
    )
    expect(logged(worker, 'identity-provider sessions ended', event.webhookId)[0]).toMatchObject({
      userId: 'u-1',
      ended: 1,
      kept: 1,
    })
    expect((await style.refresh(before)).status).toBe(style.refused)
    const refreshed = await style.refresh(after)
    expect(refreshed.status).toBe(200)
    after = refreshed.next

    // The platform's retry of the same delivery is a duplicate; a second event for the same end ends nothing.
    expect(await deliver(webhookUrl, event)).toBe('delivered')
    const again = ended('u-1', timestamp)
    expect(await deliver(webhookUrl, again)).toBe('delivered')
    await waitFor(
      () => logged(worker, 'identity-provider sessions ended', again.webhookId).length > 0,
      'again',
    )
    expect(logged(worker, 'identity-provider sessions ended', again.webhookId)[0]).toMatchObject({ ended: 0 })
    expect(logged(worker, 'identity-provider sessions ended', event.webhookId)).toHaveLength(1)
    expect((await style.refresh(after)).status).toBe(200)

    // The identity provider answers 503 (every retry of the client's first attempt): the job is retried.
    const later = await exchangeTokens('u-2')
    style.emulator.injectFault({ status: 503, times: 3, match: (call) => style.sessionCall(call.path) })
    const failing = ended('u-2', new Date(Date.now() + 1000).toISOString())
    expect(await deliver(webhookUrl, failing)).toBe('delivered')
    await waitFor(
      () => logged(worker, 'identity-provider sessions ended', failing.webhookId).length > 0,
      'retry',
    )
    expect(logged(worker, 'handler failed: will retry', failing.webhookId)).toHaveLength(1)
    expect((await style.refresh(later)).status).toBe(style.refused)

    // An unknown user is logged and acknowledged.
    const stranger = ended('nobody', new Date().toISOString())
    expect(await deliver(webhookUrl, stranger)).toBe('delivered')
    const unknown = 'session.ended: no account of this marketplace user to sign out'
    await waitFor(() => logged(worker, unknown, stranger.webhookId).length > 0, 'the unknown user')
    expect(logged(worker, unknown, stranger.webhookId)[0]).toMatchObject({ outcome: 'unknown-user' })
  })

  // Issue 35: the provider's search for the user's link is quoted and escaped (Keycloak's q, Auth0's Lucene), so a
  // user id the exchange accepts with spaces, quotes, a colon and a backslash finds its account.
  it('signs out a user whose id holds spaces, quotes, a colon and a backslash', async () => {
    const { worker, webhookUrl } = await startPipeline('{se-odd}', { IDP_SESSION_END: 'on', ...style.env })
    const userId = 'ann "o" k:1 \\ smith'
    const token = await exchangeTokens(userId)
    const event = ended(userId, new Date().toISOString())
    expect(await deliver(webhookUrl, event)).toBe('delivered')
    const done = (msg: string) => logged(worker, msg, event.webhookId).length > 0
    const unknown = 'session.ended: no account of this marketplace user to sign out'
    await waitFor(() => done('identity-provider sessions ended') || done(unknown), 'the handler')
    expect(logged(worker, 'identity-provider sessions ended', event.webhookId)[0]).toMatchObject({
      userId,
      ended: 1,
    })
    expect((await style.refresh(token)).status).toBe(style.refused)
  })
})
