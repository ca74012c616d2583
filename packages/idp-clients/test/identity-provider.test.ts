import { createCleanup } from '@pf/testkit'
import { startAuth0Emulator, startKeycloakEmulator } from '@pf/testkit/emulators'
import {
  createIdentityProvider,
  endUserSessions,
  readIdentityProviderSettings,
  type IdentityProvider,
  type MarketplaceUser,
} from '@pf/idp-clients'

// One contract for every vendor (issue 39): each style, built from an environment object by the one reader and
// the one factory, does what `IdentityProvider` promises, against its emulator over HTTP. A third vendor joins
// `styles` below with its emulator and passes the same tests.
const SECRET = 'a-long-enough-client-secret-1234'
const cleanup = createCleanup(afterAll)

const styles: [string, () => Promise<Record<string, string>>][] = [
  [
    'realm',
    async () => {
      const keycloak = cleanup.add(
        await startKeycloakEmulator({
          clients: [{ clientId: 'pf-exchange', secret: SECRET }],
          unmanagedAttributes: 'ADMIN_EDIT',
        }),
        (k) => k.stop(),
      )
      return {
        IDP_STYLE: 'realm',
        REALM_SERVER_URL: keycloak.url,
        REALM_NAME: 'pf',
        REALM_CLIENT_ID: 'pf-exchange',
        REALM_CLIENT_SECRET: SECRET,
        REALM_ADMIN_USER: 'admin',
        REALM_ADMIN_PASSWORD: 'admin',
      }
    },
  ],
  [
    'tenant',
    async () => {
      // The search's lag has its own tests (tenant-client.test.ts): here the session ending finds the account.
      const auth0 = cleanup.add(
        await startAuth0Emulator({
          clients: [{ clientId: 'pf-exchange', clientSecret: SECRET }],
          searchLagMs: 0,
        }),
        (a) => a.stop(),
      )
      return {
        IDP_STYLE: 'tenant',
        TENANT_DOMAIN: auth0.domain,
        TENANT_BASE_URL: auth0.url,
        TENANT_CLIENT_ID: 'pf-exchange',
        TENANT_CLIENT_SECRET: SECRET,
        TENANT_AUDIENCE: 'https://api.pf.example.com',
        TENANT_CLAIM_NAMESPACE: auth0.namespace,
      }
    },
  ],
]

describe.each(styles)('the %s style as an IdentityProvider', (style, start) => {
  let idp: IdentityProvider
  const user: MarketplaceUser = {
    userId: 'user 1',
    orgId: 'org_1',
    applicationId: 'app_1',
    email: 'ada@example.com',
  }
  beforeAll(async () => {
    const { settings, problems } = readIdentityProviderSettings(await start())
    expect(problems).toEqual([])
    idp = createIdentityProvider(settings, { timeoutMs: 30_000 })
  })

  it('is the style IDP_STYLE names, answers at its discovery document, and publishes its keys', async () => {
    expect(idp.style).toBe(style)
    await expect(idp.ping()).resolves.toBeUndefined()
    const document = (await (await fetch(idp.discovery.url)).json()) as { token_endpoint?: unknown }
    expect(typeof document.token_endpoint).toBe('string')
    const keys = (await (await fetch(idp.discovery.jwksUri)).json()) as { keys?: unknown[] }
    expect(keys.keys?.length).toBeGreaterThan(0)
  })

  it('syncs a user, signs it in after the sync and on the warm path, and reads the claims it issued', async () => {
    const synced = await idp.syncUser(user)
    expect(synced).toMatchObject({ pfUserId: 'user 1', created: true, adopted: false })
    const first = await idp.signIn(synced, user)
    expect(idp.claimsOf(first.access_token)).toMatchObject({
      pfUserId: 'user 1',
      orgId: 'org_1',
      pfApplicationId: 'app_1',
      roles: expect.arrayContaining(['pf-user']),
    })
    const again = await idp.syncUser(user)
    expect(again).toMatchObject({ id: synced.id, created: false })
    const warm = await idp.grant({ id: synced.id, username: synced.username }, user, { ip: '192.0.2.1' })
    expect(idp.claimsOf(warm.access_token)?.pfUserId).toBe('user 1')
    expect(idp.claimsOf('opaque')).toBeNull()
  })

  it('revokes a refresh token it issued, and ends the sessions of a marketplace user', async () => {
    const tokens = await idp.signIn(await idp.syncUser(user), user)
    await expect(idp.revoke(tokens.refresh_token!)).resolves.toBeUndefined()
    await idp.signIn(await idp.syncUser(user), user)
    const ended = await endUserSessions(idp, { pfUserId: 'user 1', endedAt: Date.now() + 2000 })
    expect(ended).toMatchObject({ outcome: 'ended' })
    expect(await idp.endUserSessions({ pfUserId: 'nobody', endedAt: Date.now() })).toEqual({
      outcome: 'unknown-user',
    })
  })

  it('checks its set-up: nothing to log at start, and a finding for every doctor line', async () => {
    await expect(idp.checkAtStart()).resolves.toEqual([])
    const checks = idp.setupChecks()
    expect(checks.length).toBeGreaterThan(0)
    for (const { name, run } of checks) {
      expect(name).toEqual(expect.any(String))
      expect(await run()).toHaveProperty('ok')
    }
  })
})
