import { createCleanup } from '@pf/testkit'
import { startKeycloakEmulator, type KeycloakEmulator } from '@pf/testkit/emulators'
import { createWebhookEvent } from '@pf/testkit/platform'
import { validateWebhookEvent, type HandlerContext, type WebhookEvent } from '@pf/schemas'
import { withSessionEnd } from '../src/worker/session-end-handler'

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
  logger: {
    info: (obj, msg) => void lines.push({ level: 'info', obj, msg }),
    warn: (obj, msg) => void lines.push({ level: 'warn', obj, msg }),
    error: (obj, msg) => void lines.push({ level: 'error', obj, msg }),
  },
  once: async (_key, effect) => (await effect(), true),
}
const sessionEnded = (userId: string) => {
  const checked = validateWebhookEvent(createWebhookEvent('session.ended', { data: { userId } }))
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
