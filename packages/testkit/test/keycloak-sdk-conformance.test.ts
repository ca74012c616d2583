import { execFile } from 'node:child_process'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { createCleanup, type Cleanup } from '@pf/testkit'
import { startKeycloakEmulator, type KeycloakEmulator } from '../src/emulators'

// The emulator must answer Keycloak's own admin client (@keycloak/keycloak-admin-client) as the real server does,
// so it cannot drift from what real clients expect. With LIVE_KEYCLOAK_URL set (the realm of
// services/auth-exchange/deploy/keycloak imported), the same script runs against that server too.
const run = promisify(execFile)
const script = join(__dirname, 'conformance', 'keycloak-admin-client.mjs')
const CLIENT = { clientId: 'pf-exchange', secret: 'pf-exchange-secret' }

interface Seen {
  createdId: string
  foundByUsername: string[]
  foundByAttribute: string[]
  stored: { username: string; email: string; firstName: string; attributes: Record<string, string[]> }
  partialPut: string | number
  afterPartial: { email?: string; firstName: string | null; attributes: Record<string, string[]> | null }
  afterFullPut: Record<string, string[]>
  realmRoles: string[]
  mappings: string[]
  duplicate: string | number
  serverVersion: string | null
  serviceAccountSees: string[]
  effectiveRealm: string[]
  effectiveAccount: string[]
  defaultComposites: string[]
  credentialTypes: string[]
  identityProviderLinks: unknown[]
  groupCount: number
  groups: string[]
  refreshAfterReset: number
  refreshAfterLogout: number
  organizations?: number | string
  sessionStarts: boolean[]
  offlineSessions: number
  refreshAfterDelete: number
  deleteOffline: number | string
  offlineAfterDelete: number
  refreshOfflineAfterDelete: number
  deleteUnknownSession: number | string
  setupClient: { publicClient?: boolean; directAccessGrantsEnabled?: boolean }
  profile: { unmanagedAttributePolicy: string | null; names: string[] }
  verifyProfile?: boolean
  oddSearch: { escaped: boolean; quotesOnly: boolean; unquoted: boolean }
}

async function drive(target: {
  url: string
  realm: string
  adminUser: string
  adminPassword: string
  clientId: string
  secret: string
}) {
  const suffix = Math.random().toString(36).slice(2, 8)
  const { stdout } = await run(
    process.execPath,
    [
      script,
      target.url,
      target.realm,
      target.adminUser,
      target.adminPassword,
      target.clientId,
      target.secret,
      suffix,
    ],
    { timeout: 60_000 },
  )
  return JSON.parse(stdout.trim().split('\n').at(-1)!) as Seen
}

const live = process.env.LIVE_KEYCLOAK_URL
// A target registers what it starts on the suite's cleanup: a failing drive still stops its emulator.
const targets: [string, (cleanup: Cleanup) => Promise<Seen>][] = [
  // 24.0.1: before the admin API's session delete learnt isOffline (keycloak/keycloak#28129, 24.0.2); 26.1.4:
  // a search's q read by the parser of 26.0.6 on (CVE-2024-10270).
  ...([[24], [25], [26], [24, '24.0.1'], [26, '26.1.4']] as const).map(
    ([version, serverVersion]: readonly [24 | 25 | 26, string?]) =>
      [
        `emulated Keycloak ${serverVersion ?? version}`,
        async (cleanup: Cleanup) => {
          const keycloak: KeycloakEmulator = await startKeycloakEmulator({
            version,
            ...(serverVersion ? { serverVersion } : {}),
            unmanagedAttributes: true,
            clients: [
              { ...CLIENT, serviceAccountRoles: ['manage-users', 'view-users', 'query-users', 'view-realm'] },
            ],
          })
          cleanup.add(keycloak, (k) => k.stop())
          return drive({
            url: keycloak.url,
            realm: 'pf',
            adminUser: 'admin',
            adminPassword: 'admin',
            ...CLIENT,
          })
        },
      ] as [string, (cleanup: Cleanup) => Promise<Seen>],
  ),
  ...(live
    ? [
        [
          `live Keycloak at ${live}`,
          () =>
            drive({
              url: live,
              realm: process.env.LIVE_KEYCLOAK_REALM ?? 'pf',
              adminUser: process.env.LIVE_KEYCLOAK_ADMIN_USER ?? 'admin',
              adminPassword: process.env.LIVE_KEYCLOAK_ADMIN_PASSWORD ?? 'admin',
              clientId: process.env.LIVE_KEYCLOAK_CLIENT_ID ?? CLIENT.clientId,
              secret: process.env.LIVE_KEYCLOAK_CLIENT_SECRET ?? CLIENT.secret,
            }),
        ] as [string, (cleanup: Cleanup) => Promise<Seen>],
      ]
    : []),
]

describe.each(targets)("Keycloak's own admin client against %s", (_name, start) => {
  let seen: Seen
  const cleanup = createCleanup(afterAll)
  beforeAll(async () => {
    seen = await start(cleanup)
  })

  it('creates a user (id from the Location header) found by exact username and by case-blind attribute search', () => {
    expect(seen.createdId).toMatch(/\S/)
    expect(seen.foundByUsername).toEqual([seen.createdId])
    expect(seen.foundByAttribute).toEqual([seen.createdId])
    expect(seen.stored).toMatchObject({
      firstName: 'Sdk',
      attributes: { pfUserId: [expect.stringMatching(/^sdk-/)] },
    })
  })

  it('has no partial PUT (24.0.4): leaving out the email is refused, or removes it with the names', () => {
    if (seen.partialPut === 'accepted') expect(seen.afterPartial).toMatchObject({ firstName: null })
    else expect(seen.partialPut).toBe(400)
  })

  it('keeps everything on a PUT of the complete representation', () => {
    expect(seen.afterFullPut).toMatchObject({ orgId: ['o2'], pfUserId: [expect.stringMatching(/^sdk-/)] })
  })

  it('maps realm roles by id and name, beside the default roles, and lists all mappings', () => {
    expect(seen.realmRoles).toEqual(expect.arrayContaining(['pf-user']))
    expect(seen.mappings).toContain('realmMappings')
  })

  it('stores usernames lower-cased: the upper-case twin is a 409', () => {
    expect(seen.duplicate).toBe(409)
  })

  it('expands composites in effective role mappings: the default roles reach offline_access, uma_authorization and account roles', () => {
    expect(seen.effectiveRealm).toEqual(
      expect.arrayContaining(['default-roles-pf', 'offline_access', 'uma_authorization', 'pf-user']),
    )
    expect(seen.effectiveAccount).toEqual(
      expect.arrayContaining(['manage-account', 'manage-account-links', 'view-profile']),
    )
    expect(seen.defaultComposites).toEqual(
      expect.arrayContaining(['manage-account', 'offline_access', 'uma_authorization', 'view-profile']),
    )
    expect(seen.defaultComposites).not.toContain('manage-account-links') // a child of manage-account, not direct
  })

  it('lists credentials (a password only), identity-provider links (none) and groups (counted)', () => {
    expect(seen.credentialTypes).toEqual(['password'])
    expect(seen.identityProviderLinks).toEqual([])
    expect(seen.groupCount).toBe(1)
    expect(seen.groups).toEqual([expect.stringMatching(/^sdk-/)])
  })

  it('keeps sessions alive across a new password; the admin logout ends them', () => {
    expect(seen.refreshAfterReset).toBe(200)
    expect(seen.refreshAfterLogout).toBe(400)
  })

  it('lists sessions with their start in epoch ms and ends them one by one; offline ones by client (isOffline from 24.0.2, else the consent)', () => {
    expect(seen.sessionStarts).toEqual([true])
    expect(seen.offlineSessions).toBe(1)
    expect(seen.refreshAfterDelete).toBe(400)
    const version = (seen.serverVersion ?? '').split('.').map(Number)
    const hasIsOffline = version[0]! > 24 || (version[0] === 24 && (version[1]! > 0 || version[2]! >= 2))
    expect(seen.deleteOffline).toBe(hasIsOffline ? 204 : 404)
    expect(seen.offlineAfterDelete).toBe(0)
    expect(seen.refreshOfflineAfterDelete).toBe(400)
    expect(seen.deleteUnknownSession).toBe(404)
  })

  it('answers organizations on 26 only when the realm turned them on (404 otherwise)', () => {
    if (Number.parseInt(seen.serverVersion ?? '0', 10) >= 26) expect(seen.organizations).toBe(404)
    else expect(seen.organizations).toBeUndefined()
  })

  it("tells master-realm admins its version, and lets the client's service account manage its realm's users", () => {
    expect(seen.serverVersion).toMatch(/^2[4-9]\./)
    expect(seen.serviceAccountSees).toEqual([seen.createdId])
  })

  it("finds an attribute value with spaces, quotes, a colon and a backslash by a quoted q, as the server's parser reads it (issue 35)", () => {
    // SearchQueryUtils.getFields: up to 26.0.5 (24.0.8) `\x` inside quotes is `x`; from 26.0.6 (24.0.9) only
    // `\"` is an escape, `\\` is dropped and other backslashes are kept (keycloak/keycloak#35214, #37281).
    const [major = 0, minor = 0, patch = 0] = (seen.serverVersion ?? '').split('.').map(Number)
    const scans = major > 26 || (major === 26 && (minor > 0 || patch >= 6)) || (major === 24 && patch >= 9)
    expect(seen.oddSearch).toEqual({ escaped: !scans, quotesOnly: scans, unquoted: false })
  })

  it('describes the set-up a doctor checks: a confidential client with direct access grants, the user profile (unmanaged attributes kept) and Verify Profile (on)', () => {
    expect(seen.setupClient).toEqual({ publicClient: false, directAccessGrantsEnabled: true })
    expect(seen.profile.unmanagedAttributePolicy).toBe('ADMIN_EDIT')
    expect(seen.profile.names).toEqual(expect.arrayContaining(['username', 'email', 'firstName', 'lastName']))
    expect(seen.verifyProfile).toBe(true)
  })
})
