import type { Auth0EmulatorOptions, EmulatedAuth0User } from '@pf/testkit/emulators'
import { createCleanup } from '@pf/testkit'
import { CLIENT_SECRET, claims, startExchange, startWorldOn, type Exchange, type World } from './support'

// Issue 22 for Auth0, through POST /auth/exchange against the emulated tenant over HTTP: adoption takes over
// only a verified, unblocked, unlinked holder of the connection with a plain password, no organization and
// nothing beyond pf-user, and ends its sessions and refresh tokens first (per user on Enterprise plans, through
// device-credentials otherwise).

// What a test starts is stopped after it, whatever failed (world first started, last stopped).
const cleanup = createCleanup(afterEach)
let world: World
let exchange: Exchange

const EMAIL = 'jane@example.com'
const PF_USER = {
  id: 'rol_pfUser0000001',
  name: 'pf-user',
  permissions: [{ permission_name: 'read:own', resource_server_identifier: 'https://api.pf.example.com' }],
}
const seedHolder = (extra: Partial<EmulatedAuth0User> = {}) =>
  world.auth0!.seedUser({ email: EMAIL, password: 'Janes-own-1', email_verified: true, ...extra })

/** The tenant's token endpoint, as the holder's own apps call it. */
async function tenantToken(fields: Record<string, string>) {
  const res = await fetch(`${world.auth0!.url}/oauth/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ client_id: 'pf-exchange', client_secret: CLIENT_SECRET, ...fields }),
  })
  return { status: res.status, body: (await res.json()) as { refresh_token?: string; error?: string } }
}
const holderSignsIn = async () =>
  (
    await tenantToken({
      grant_type: 'http://auth0.com/oauth/grant-type/password-realm',
      realm: 'Username-Password-Authentication',
      username: EMAIL,
      password: 'Janes-own-1',
      scope: 'openid offline_access',
    })
  ).body.refresh_token!

describe.each([
  ['an Enterprise tenant (per-user sessions and refresh-tokens endpoints)', true],
  ['a tenant without them (refresh tokens revoked through device-credentials)', false],
])('adoption on %s', (_name, sessionEndpoints) => {
  it('adopts a verified plain holder and ends its refresh tokens before issuing ours', async () => {
    world = await startWorldOn(cleanup, 'tenant', { auth0: { sessionEndpoints } })
    exchange = cleanup.add(await startExchange(world), (e) => e.close())
    const holder = seedHolder()
    const refresh = await holderSignsIn()
    world.auth0!.startSession(holder.user_id)
    expect((await tenantToken({ grant_type: 'refresh_token', refresh_token: refresh })).status).toBe(200)

    const res = await exchange.post(world.issuer.mint(claims('u1', { email: EMAIL })))
    expect(res.status).toBe(200)
    expect(res.body.user.id).toBe(holder.user_id)
    expect(holder.app_metadata.pfUserId).toBe('u1')
    expect(await tenantToken({ grant_type: 'refresh_token', refresh_token: refresh })).toMatchObject({
      status: 403,
      body: { error: 'invalid_grant' },
    })
    expect(world.auth0!.refreshTokensOf(holder.user_id)).toHaveLength(1) // ours
    // Without the plan's endpoint the tenant's login session cannot be ended (README: when to choose never).
    expect(world.auth0!.sessionsOf(holder.user_id)).toHaveLength(sessionEndpoints ? 0 : 1)
  })
})

describe('adoption refusals on Auth0: 409 account_conflict, the holder untouched', () => {
  const cases: [string, Partial<EmulatedAuth0User>, Auth0EmulatorOptions?][] = [
    ['its email is not verified by the tenant', { email_verified: false }],
    ['it is blocked', { blocked: true }],
    [
      'a social identity is linked to it',
      {
        linkedIdentities: [
          { connection: 'google-oauth2', provider: 'google-oauth2', user_id: 'g-1', isSocial: true },
        ],
      },
    ],
    [
      'it has a second factor (totp)',
      {
        authenticationMethods: [
          { id: 'totp|dev_1', type: 'totp', confirmed: true, created_at: '2026-01-01T00:00:00.000Z' },
        ],
      },
    ],
    [
      'it belongs to an organization',
      { organizations: ['org_acme'] },
      { organizations: [{ id: 'org_acme', name: 'acme' }] },
    ],
    [
      "it holds a permission beyond pf-user's",
      {
        permissions: [
          { permission_name: 'delete:everything', resource_server_identifier: 'https://api.pf.example.com' },
        ],
      },
      { roles: [PF_USER] },
    ],
    [
      'it holds a role beyond pf-user',
      { roles: new Set(['rol_admin']) },
      { roles: [PF_USER, { id: 'rol_admin', name: 'org-admin' }] },
    ],
  ]

  // A row without options has two elements: the test takes them as one argument, lest Jest read a third as done.
  it.each(cases.map(([name, extra, options]) => ({ name, extra, options })))(
    '$name',
    async ({ extra, options: auth0Options }) => {
      world = await startWorldOn(cleanup, 'tenant', { auth0: auth0Options })
      exchange = cleanup.add(await startExchange(world), (e) => e.close())
      const holder = seedHolder(extra)
      const res = await exchange.post(world.issuer.mint(claims('u2', { email: EMAIL })))
      expect(res.status).toBe(409)
      expect(res.body).toEqual({
        error: 'account_conflict',
        error_description: expect.stringMatching(/not adopted/),
      })
      expect(holder.password).toBe('Janes-own-1')
      expect(holder.app_metadata).toEqual({})
    },
  )

  it('never adopts when the marketplace token says email_verified: false', async () => {
    world = await startWorldOn(cleanup, 'tenant')
    exchange = cleanup.add(await startExchange(world), (e) => e.close())
    const holder = seedHolder()
    const res = await exchange.post(world.issuer.mint(claims('u3', { email: EMAIL, email_verified: false })))
    expect(res.status).toBe(409)
    expect(holder.password).toBe('Janes-own-1')
  })

  it("adopts a holder whose direct permissions are pf-user's own", async () => {
    world = await startWorldOn(cleanup, 'tenant', { auth0: { roles: [PF_USER] } })
    exchange = cleanup.add(await startExchange(world), (e) => e.close())
    seedHolder({ permissions: [...PF_USER.permissions] })
    expect((await exchange.post(world.issuer.mint(claims('u4', { email: EMAIL })))).status).toBe(200)
  })

  it('answers 502 naming the missing Management API scope, before changing anything', async () => {
    world = await startWorldOn(cleanup, 'tenant', {
      auth0: {
        clients: [
          {
            clientId: 'pf-exchange',
            clientSecret: CLIENT_SECRET,
            scopes: ['read:users', 'create:users', 'update:users', 'read:roles', 'create:role_members'],
          },
        ],
      },
    })
    exchange = cleanup.add(await startExchange(world), (e) => e.close())
    const holder = seedHolder()
    const res = await exchange.post(world.issuer.mint(claims('u5', { email: EMAIL })))
    expect(res.status).toBe(502)
    expect(res.body.error_description).toMatch(/read:authentication_methods/)
    expect(holder.password).toBe('Janes-own-1')
  })
})
