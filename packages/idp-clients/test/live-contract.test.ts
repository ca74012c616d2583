import { startAuth0Emulator, startKeycloakEmulator } from '@pf/testkit/emulators'
import {
  createRealmClient,
  createTenantClient,
  decodeJwtPayload,
  deriveRealmPassword,
  deriveTenantPassword,
  endUserSessions,
  type EndUserSessionsResult,
  type MarketplaceUser,
} from '@pf/idp-clients'

// The clients' contract: a new user, its sign-in, a returning user whose orgId changed, and a second sign-in,
// judged only by what the provider answers (tokens and their claims), so the same test holds on a live server.
// It always runs on the emulators (stock Keycloak profile); with LIVE_KEYCLOAK_URL (the realm of
// services/auth-exchange/deploy/keycloak imported, LIVE_KEYCLOAK_CLIENT_SECRET) or LIVE_AUTH0_DOMAIN,
// LIVE_AUTH0_CLIENT_ID, LIVE_AUTH0_CLIENT_SECRET (LIVE_AUTH0_CONNECTION, LIVE_AUTH0_AUDIENCE) it runs there too.
const suffix = Math.random().toString(36).slice(2, 8)
const user = (orgId: string): MarketplaceUser => ({
  userId: `Live-${suffix}`,
  orgId,
  applicationId: 'app_1',
  email: `live-${suffix}@example.com`,
})
const claimsOf = (token: string) => decodeJwtPayload(token) ?? {}

type Contract = {
  syncAndSignIn(user: MarketplaceUser): Promise<Record<string, unknown>>
  /** `endUserSessions` for the contract's user (issue 27). */
  endSessions(endedAt: number): Promise<EndUserSessionsResult>
  stop(): Promise<void>
}

async function realmContract(live: boolean, adminAuth: 'password' | 'client_credentials'): Promise<Contract> {
  const secret = live ? (process.env.LIVE_KEYCLOAK_CLIENT_SECRET ?? '') : 'pf-exchange-secret'
  const emulator = live
    ? undefined
    : await startKeycloakEmulator({
        unmanagedAttributes: true,
        clients: [
          {
            clientId: 'pf-exchange',
            secret,
            serviceAccountRoles: ['manage-users', 'view-users', 'query-users', 'view-realm'],
          },
        ],
      })
  const client = createRealmClient({
    serverUrl: emulator?.url ?? process.env.LIVE_KEYCLOAK_URL ?? '',
    realm: 'pf',
    clientId: 'pf-exchange',
    clientSecret: secret,
    adminAuth,
    adminUser: process.env.LIVE_KEYCLOAK_ADMIN_USER ?? 'admin',
    adminPassword: process.env.LIVE_KEYCLOAK_ADMIN_PASSWORD ?? 'admin',
    version: adminAuth === 'client_credentials' ? 26 : 'auto',
    timeoutMs: 60_000,
  })
  return {
    async syncAndSignIn(marketplaceUser) {
      const password = deriveRealmPassword(marketplaceUser.userId, secret)
      const synced = await client.syncUser(marketplaceUser, password)
      return claimsOf((await client.signIn(synced, password)).access_token)
    },
    endSessions: (endedAt) => endUserSessions(client, { pfUserId: `Live-${suffix}`, endedAt }),
    stop: async () => emulator?.stop(),
  }
}

async function tenantContract(live: boolean): Promise<Contract> {
  const emulator = live
    ? undefined
    : await startAuth0Emulator({ clients: [{ clientId: 'pf-exchange', clientSecret: 'pf-exchange-secret' }] })
  const secret = live ? (process.env.LIVE_AUTH0_CLIENT_SECRET ?? '') : 'pf-exchange-secret'
  const client = createTenantClient({
    domain: emulator?.domain ?? process.env.LIVE_AUTH0_DOMAIN ?? '',
    ...(emulator ? { baseUrl: emulator.url } : {}),
    clientId: live ? (process.env.LIVE_AUTH0_CLIENT_ID ?? '') : 'pf-exchange',
    clientSecret: secret,
    connection: process.env.LIVE_AUTH0_CONNECTION ?? 'Username-Password-Authentication',
    audience: live ? process.env.LIVE_AUTH0_AUDIENCE : 'https://api.pf.example.com',
    timeoutMs: 60_000,
  })
  const namespace = emulator?.namespace ?? process.env.LIVE_AUTH0_NAMESPACE ?? 'https://pf.example.com/'
  return {
    async syncAndSignIn(marketplaceUser) {
      const password = deriveTenantPassword(marketplaceUser.userId, secret)
      const synced = await client.syncUser(marketplaceUser, password)
      const claims = claimsOf((await client.signIn(synced, password)).access_token)
      return { pfUserId: claims[`${namespace}pfUserId`], orgId: claims[`${namespace}orgId`] }
    },
    endSessions: (endedAt) => endUserSessions(client, { pfUserId: `Live-${suffix}`, endedAt }),
    stop: async () => emulator?.stop(),
  }
}

const liveKeycloak = Boolean(process.env.LIVE_KEYCLOAK_URL)
const liveAuth0 = Boolean(process.env.LIVE_AUTH0_DOMAIN)
const contracts: [string, () => Promise<Contract>][] = [
  ['emulated Keycloak (admin-cli)', () => realmContract(false, 'password')],
  ['emulated Keycloak (service account)', () => realmContract(false, 'client_credentials')],
  ['emulated Auth0', () => tenantContract(false)],
  ...(liveKeycloak
    ? ([
        ['live Keycloak (admin-cli)', () => realmContract(true, 'password')],
        ['live Keycloak (service account)', () => realmContract(true, 'client_credentials')],
      ] as [string, () => Promise<Contract>][])
    : []),
  ...(liveAuth0 ? ([['live Auth0', () => tenantContract(true)]] as [string, () => Promise<Contract>][]) : []),
]

describe.each(contracts)('client contract on %s', (_name, start) => {
  let contract: Contract
  beforeAll(async () => {
    contract = await start()
  })
  afterAll(() => contract.stop())

  it('creates and signs in a new user whose tokens carry pfUserId and orgId', async () => {
    expect(await contract.syncAndSignIn(user('org_1'))).toMatchObject({
      pfUserId: `Live-${suffix}`,
      orgId: 'org_1',
    })
  })

  it('updates a returning user whose orgId changed, and signs it in again', async () => {
    expect(await contract.syncAndSignIn(user('org_2'))).toMatchObject({
      pfUserId: `Live-${suffix}`,
      orgId: 'org_2',
    })
  })

  it('ends the sessions of the user that started before now, and a second run ends nothing (issue 27)', async () => {
    const endedAt = Date.now() + 1000
    // Auth0's user search lags behind writes: the account is found once the index has it.
    let result = await contract.endSessions(endedAt)
    for (let i = 0; i < 40 && result.outcome === 'unknown-user'; i += 1) {
      await new Promise((resolve) => setTimeout(resolve, 500))
      result = await contract.endSessions(endedAt)
    }
    expect(result).toMatchObject({ outcome: 'ended', ended: expect.any(Number) })
    expect(result.outcome === 'ended' && result.ended).toBeGreaterThanOrEqual(1)
    expect(await contract.endSessions(endedAt)).toMatchObject({ outcome: 'ended', ended: 0 })
  })
})
