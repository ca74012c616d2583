import { execFile } from 'node:child_process'
import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { createCleanup, startServiceProcess } from '@pf/testkit'
import {
  startKeycloakEmulator,
  type DeclaredAttribute,
  type KeycloakEmulatorOptions,
  type UnmanagedAttributePolicy,
} from '@pf/testkit/emulators'
import { startMarketplaceIssuer, type MarketplaceIssuer } from '@pf/testkit/platform'

// Issue 35: the 409 path and session.ended find accounts by their pfUserId, so a realm where users may write
// their own marketplace attributes (unmanagedAttributePolicy ENABLED, or a declared attribute whose edit
// permission holds `user`) is a misconfiguration: the built doctor fails on it naming the fix, and the built
// exchange logs the same line at every start.
const dist = join(__dirname, '..', 'dist')
beforeAll(() => {
  for (const entry of ['main.js', 'doctor.js'])
    if (!existsSync(join(dist, entry))) throw new Error('dist/ is missing: run `pnpm build` (pnpm test does)')
})

const SECRET = 'a-long-enough-client-secret-1234'
const ADMIN_PASSWORD = 'a-long-enough-admin-password-123'
const CHECK = 'realm marketplace attributes admin-only'
const cleanup = createCleanup(afterAll)
let issuer: MarketplaceIssuer
beforeAll(async () => {
  issuer = cleanup.add(await startMarketplaceIssuer(), (i) => i.stop())
})

/** The user profile `deploy/keycloak/pf-realm.json` ships: ADMIN_EDIT, the attributes declared admin-only. */
function shippedProfile(): KeycloakEmulatorOptions {
  const realm = JSON.parse(readFileSync(join(__dirname, '..', 'deploy', 'keycloak', 'pf-realm.json'), 'utf8'))
  const [provider] = realm.components['org.keycloak.userprofile.UserProfileProvider']
  const config = JSON.parse(provider.config['kc.user.profile.config'][0]) as {
    unmanagedAttributePolicy: UnmanagedAttributePolicy
    attributes: DeclaredAttribute[]
  }
  const builtIn = ['username', 'email', 'firstName', 'lastName']
  return {
    unmanagedAttributes: config.unmanagedAttributePolicy,
    declaredAttributes: config.attributes
      .filter(({ name }) => !builtIn.includes(name))
      .map(({ name, permissions }) => ({ name, permissions })),
  }
}

/** The exchange's environment for a Keycloak emulator set up as the spec requires, with `profile` applied. */
async function realmEnv(profile: KeycloakEmulatorOptions) {
  const keycloak = await startKeycloakEmulator({
    adminPassword: ADMIN_PASSWORD,
    clients: [{ clientId: 'pf-exchange', secret: SECRET }],
    userProfile: 'names-optional',
    ...profile,
  })
  cleanup.add(keycloak, (k) => k.stop())
  return {
    PATH: process.env.PATH,
    PF_APPLICATION_ID: 'app_1',
    MARKETPLACE_JWKS_URL: issuer.jwksUrl,
    MARKETPLACE_ISSUER: issuer.issuer,
    IDP_STYLE: 'realm',
    REALM_SERVER_URL: keycloak.url,
    REALM_NAME: 'pf',
    REALM_CLIENT_ID: 'pf-exchange',
    REALM_CLIENT_SECRET: SECRET,
    REALM_ADMIN_USER: 'admin',
    REALM_ADMIN_PASSWORD: ADMIN_PASSWORD,
  }
}

const doctor = async (profile: KeycloakEmulatorOptions) => {
  const env = await realmEnv(profile)
  return new Promise<{ code: number; stdout: string }>((resolve) => {
    execFile(process.execPath, [join(dist, 'doctor.js')], { env }, (error, stdout) =>
      resolve({ code: error ? Number(error.code) : 0, stdout }),
    )
  })
}

const userEditable = (name: string): DeclaredAttribute => ({
  name,
  permissions: { view: ['admin', 'user'], edit: ['admin', 'user'] },
})

describe('doctor: only administrators may write the marketplace attributes', () => {
  it('passes on the profile pf-realm.json ships (ADMIN_EDIT, the attributes declared admin-only)', async () => {
    const run = await doctor(shippedProfile())
    expect(run.stdout).toMatch(
      /^ok {4}realm marketplace attributes admin-only {2}only administrators edit pfUserId/m,
    )
    expect(run.stdout).not.toMatch(/^FAIL/m)
    expect(run.code).toBe(0)
  })

  it.each<[string, KeycloakEmulatorOptions, RegExp]>([
    [
      'unmanagedAttributePolicy ENABLED (what the README used to recommend)',
      { unmanagedAttributes: 'ENABLED' },
      /^FAIL {2}realm marketplace attributes admin-only: users can write their own marketplace attributes in the Account Console \(unmanagedAttributePolicy ENABLED lets them edit pfUserId, orgId, pfApplicationId\).*\(fix: set unmanagedAttributePolicy to ADMIN_EDIT \(Realm settings → General → Unmanaged attributes: "Only administrators can write"\)\)$/m,
    ],
    [
      'pfUserId declared with user in its edit permission',
      { unmanagedAttributes: 'ADMIN_EDIT', declaredAttributes: [userEditable('pfUserId')] },
      /^FAIL {2}realm marketplace attributes admin-only: .*the user profile gives user the edit permission of pfUserId\).*\(fix: remove user from the edit permission of pfUserId/m,
    ],
    [
      'orgId and pfApplicationId declared user-editable',
      {
        unmanagedAttributes: true,
        declaredAttributes: [userEditable('orgId'), userEditable('pfApplicationId')],
      },
      /^FAIL {2}realm marketplace attributes admin-only: .*edit permission of orgId, pfApplicationId\)/m,
    ],
  ])('fails on %s, naming the fix; the attributes are still kept', async (_case, profile, line) => {
    const run = await doctor(profile)
    expect(run.stdout).toMatch(line)
    expect(run.stdout).toMatch(/^ok {4}realm user profile keeps pfUserId/m)
    expect(run.stdout.match(/^FAIL/gm)).toHaveLength(1)
    expect(run.code).toBe(1)
  })
})

describe('the exchange at start', () => {
  const start = async (profile: KeycloakEmulatorOptions) => {
    const service = await startServiceProcess({
      entry: join(dist, 'main.js'),
      env: { ...(await realmEnv(profile)), PORT: '0' },
      readyMessage: 'auth exchange listening',
    })
    cleanup.add(service, (s) => s.stop('SIGKILL'))
    return service
  }

  it('logs, as an error, a realm whose users may edit their pfUserId (ENABLED), and still serves', async () => {
    const service = await start({ unmanagedAttributes: 'ENABLED' })
    expect(service.logs.filter((line) => line.event === 'idp_setup_problem')).toEqual([
      expect.objectContaining({
        level: 50, // pino's error
        check: CHECK,
        problem: expect.stringMatching(/unmanagedAttributePolicy ENABLED lets them edit pfUserId/),
        fix: expect.stringMatching(/ADMIN_EDIT/),
      }),
    ])
    const { url } = service.readyLine as { url: string }
    expect((await fetch(`${url}/ready`)).status).toBe(200)
  })

  it('logs nothing of the kind with ADMIN_EDIT', async () => {
    const service = await start({ unmanagedAttributes: 'ADMIN_EDIT' })
    expect(service.logs.filter((line) => line.event === 'idp_setup_problem')).toEqual([])
  })
})
