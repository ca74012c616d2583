import { execFile } from 'node:child_process'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { createCleanup } from '@pf/testkit'
import { startKeycloakEmulator } from '../src/emulators'

// The admin endpoints of the JWT Authorization Grant (issue 39) as Keycloak's own admin client
// (@keycloak/keycloak-admin-client) calls them: serverinfo's features, identity providers of the new type, the
// client's grant attributes, the federated-identity link, a credential's removal. With LIVE_KEYCLOAK_JWT_URL set
// (a 26.5.3+ server with the feature on), the same script runs against it too.
const run = promisify(execFile)
const script = join(__dirname, 'conformance', 'keycloak-jwt-grant-admin-client.mjs')
const cleanup = createCleanup(afterAll)

async function drive(url: string, realm: string, adminUser: string, adminPassword: string, clientId: string) {
  const suffix = Math.random().toString(36).slice(2, 8)
  const { stdout } = await run(
    process.execPath,
    [script, url, realm, adminUser, adminPassword, clientId, suffix],
    {
      timeout: 60_000,
    },
  )
  return JSON.parse(stdout.trim().split('\n').at(-1)!) as Record<string, unknown>
}

const live = process.env.LIVE_KEYCLOAK_JWT_URL
const targets: [string, () => Promise<Record<string, unknown>>][] = [
  [
    'emulated Keycloak 26.5.3',
    async () => {
      const keycloak = cleanup.add(
        await startKeycloakEmulator({ serverVersion: '26.5.3', features: ['jwt-authorization-grant'] }),
        (k) => k.stop(),
      )
      return drive(keycloak.url, 'pf', 'admin', 'admin', 'pf-exchange')
    },
  ],
  ...(live
    ? [
        [
          `live Keycloak at ${live}`,
          () =>
            drive(
              live,
              process.env.LIVE_KEYCLOAK_REALM ?? 'pf',
              process.env.LIVE_KEYCLOAK_ADMIN_USER ?? 'admin',
              process.env.LIVE_KEYCLOAK_ADMIN_PASSWORD ?? 'admin',
              process.env.LIVE_KEYCLOAK_CLIENT_ID ?? 'pf-exchange',
            ),
        ] as [string, () => Promise<Record<string, unknown>>],
      ]
    : []),
]

describe.each(targets)(
  "the JWT Authorization Grant's admin endpoints with Keycloak's admin client, %s",
  (_name, start) => {
    let seen: Record<string, unknown>
    beforeAll(async () => {
      seen = await start()
    }, 90_000)

    it('serverinfo lists the preview feature, enabled, and the provider type', () => {
      expect(seen.feature).toMatchObject({ name: 'JWT_AUTHORIZATION_GRANT', type: 'PREVIEW', enabled: true })
      expect(seen.providerTypes).toContain('jwt-authorization-grant')
    })

    it('creates an identity provider of the type (409 for the same alias) and finds it (none for an unknown alias)', () => {
      expect([seen.createProvider, seen.createAgain]).toEqual(['ok', 409])
      expect(seen.provider).toEqual({
        providerId: 'jwt-authorization-grant',
        enabled: true,
        issuer: expect.stringMatching(/^https:\/\/exchange-/),
      })
      expect(seen.missingProvider).toBeNull()
    })

    it("stores the client's grant attributes and direct access grants as updated", () => {
      expect(seen.client).toEqual({
        enabled: 'true',
        idp: expect.stringMatching(/^pf-sdk-/),
        directAccessGrantsEnabled: false,
      })
    })

    it('links a user to the provider once (409 the second time) and lists the link', () => {
      expect([seen.link, seen.linkAgain]).toEqual(['ok', 409])
      expect(seen.links).toEqual([[expect.stringMatching(/^pf-sdk-/), expect.stringMatching(/^sdk-/)]])
    })

    it('removes the password credential (404 the second time)', () => {
      expect([seen.deletePassword, seen.deleteAgain]).toEqual(['ok', 404])
      expect(seen.credentialsAfter).toEqual([])
    })
  },
)
