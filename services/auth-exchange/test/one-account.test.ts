import { existsSync } from 'node:fs'
import { join } from 'node:path'
import { deriveRealmPassword } from '@pf/idp-clients'
import { createCleanup, startServiceProcess } from '@pf/testkit'
import {
  startAuth0Emulator,
  startKeycloakEmulator,
  type Auth0Emulator,
  type KeycloakEmulator,
} from '@pf/testkit/emulators'
import { startMarketplaceIssuer, type MarketplaceIssuer } from '@pf/testkit/platform'

// Guide, "Identity": one marketplace user is one account, always. An account adopted earlier keeps its own
// username (realm) or email (tenant); when its user comes back with an email nobody holds, the sync finds the
// account by its link before it creates one. Before, the realm style looked the link up only after a 409, so
// this create succeeded and the user had two accounts. Through the built exchange against the emulators.
const main = join(__dirname, '..', 'dist', 'main.js')
beforeAll(() => {
  if (!existsSync(main)) throw new Error('dist/ is missing: run `pnpm build` (pnpm test does)')
})

const SECRET = 'a-long-enough-client-secret-1234'
const cleanup = createCleanup(afterEach)
let issuer: MarketplaceIssuer

/** The built exchange with `env` (the identity provider's settings), and its POST /auth/exchange. */
async function startExchange(env: Record<string, string>) {
  issuer = cleanup.add(await startMarketplaceIssuer(), (i) => i.stop())
  const service = await startServiceProcess({
    entry: main,
    env: {
      PATH: process.env.PATH,
      PORT: '0',
      PF_APPLICATION_ID: 'app_1',
      MARKETPLACE_JWKS_URL: issuer.jwksUrl,
      MARKETPLACE_ISSUER: issuer.issuer,
      ...env,
    },
    readyMessage: 'auth exchange listening',
  })
  cleanup.add(service, (s) => s.stop('SIGKILL'))
  const { url } = service.readyLine as { url: string }
  return async (userId: string, email: string) => {
    const token = issuer.mint({ userId, orgId: 'org_1', applicationId: 'app_1', email })
    const res = await fetch(`${url}/auth/exchange`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}` },
    })
    return { status: res.status, body: (await res.json()) as { user?: { id: string }; error?: string } }
  }
}

describe.each([24, 25, 26] as const)('realm style, Keycloak %s', (version) => {
  let keycloak: KeycloakEmulator
  const startRealm = async () => {
    keycloak = cleanup.add(
      await startKeycloakEmulator({
        version,
        clients: [{ clientId: 'pf-exchange', secret: SECRET }],
        unmanagedAttributes: true,
      }),
      (k) => k.stop(),
    )
    return startExchange({
      IDP_STYLE: 'realm',
      REALM_SERVER_URL: keycloak.url,
      REALM_NAME: 'pf',
      REALM_CLIENT_ID: 'pf-exchange',
      REALM_CLIENT_SECRET: SECRET,
      REALM_ADMIN_USER: 'admin',
      REALM_ADMIN_PASSWORD: 'admin',
    })
  }
  const seed = (username: string, email: string, attributes: Record<string, string[]> = {}) =>
    keycloak.seedUser({
      username,
      email,
      password: `${username}s-own`,
      firstName: 'Jane',
      lastName: 'Doe',
      emailVerified: true,
      attributes,
    })

  it('an adopted account whose user comes back with an email nobody holds is found by its link: no second account', async () => {
    const exchange = await startRealm()
    const jane = seed('jane', 'jane@example.com')
    const adopted = await exchange('u1', 'jane@example.com')
    expect(adopted).toMatchObject({ status: 200, body: { user: { id: jane.id } } })

    const back = await exchange('u1', 'jane.new@example.com')
    expect(back).toMatchObject({ status: 200, body: { user: { id: jane.id } } })
    expect([...keycloak.users.values()].map((u) => u.username)).toEqual(['jane'])
  })

  it('the account linked to the user is used, and an unlinked pf-<userId> holding its new email is left alone', async () => {
    const exchange = await startRealm()
    const linked = seed('ann', 'ann@example.com', {
      pfUserId: ['u2'],
      orgId: ['org_1'],
      pfApplicationId: ['app_1'],
    })
    linked.password = deriveRealmPassword('u2', SECRET)
    const planted = seed('pf-u2', 'ann.new@example.com')

    const back = await exchange('u2', 'ann.new@example.com')
    expect(back).toMatchObject({ status: 200, body: { user: { id: linked.id } } })
    expect(planted).toMatchObject({ password: 'pf-u2s-own', attributes: {}, notBefore: 0 })
  })
})

describe('tenant style', () => {
  let auth0: Auth0Emulator
  it('an adopted account whose user comes back with an email nobody holds is found by its link (once the search has it): no second account', async () => {
    // The link is in app_metadata, which only the user search reads, and that search lags behind writes
    // (idp-facts.md): the emulator's lag is 0 here, the README says what a real tenant's lag leaves open.
    auth0 = cleanup.add(
      await startAuth0Emulator({
        clients: [{ clientId: 'pf-exchange', clientSecret: SECRET }],
        searchLagMs: 0,
      }),
      (a) => a.stop(),
    )
    const exchange = await startExchange({
      IDP_STYLE: 'tenant',
      TENANT_DOMAIN: auth0.domain,
      TENANT_BASE_URL: auth0.url,
      TENANT_CLIENT_ID: 'pf-exchange',
      TENANT_CLIENT_SECRET: SECRET,
      TENANT_CLAIM_NAMESPACE: auth0.namespace,
    })
    const jane = auth0.seedUser({ email: 'jane@example.com', password: 'Janes-own-1', email_verified: true })
    expect(await exchange('u1', 'jane@example.com')).toMatchObject({
      status: 200,
      body: { user: { id: jane.user_id } },
    })

    const back = await exchange('u1', 'jane.new@example.com')
    expect(back).toMatchObject({ status: 200, body: { user: { id: jane.user_id } } })
    expect(auth0.users.size).toBe(1)
  })
})
