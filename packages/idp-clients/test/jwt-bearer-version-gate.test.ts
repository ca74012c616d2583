import { generateKeyPairSync } from 'node:crypto'
import { createCleanup } from '@pf/testkit'
import { startKeycloakEmulator, type KeycloakEmulator } from '@pf/testkit/emulators'
import {
  createExchangeAssertions,
  createIdentityProvider,
  IdpMisconfiguredError,
  parseAssertionKey,
  readIdentityProviderSettings,
} from '@pf/idp-clients'

// Issue 39: EXCHANGE_GRANT=jwt-bearer needs Keycloak 26.5.3: 26.5.0-26.5.2 issue tokens to disabled users and
// accept disabled providers (CVE-2026-1609, CVE-2026-1486). The provider refuses to start against 26.5.2, and
// against a server without the feature; the password mode is not gated. One emulator for the file.
const cleanup = createCleanup(afterAll)
let keycloak: KeycloakEmulator
const key = () =>
  parseAssertionKey(
    generateKeyPairSync('rsa', { modulusLength: 2048 })
      .privateKey.export({ format: 'pem', type: 'pkcs8' })
      .toString(),
  )
const assertions = createExchangeAssertions({
  issuer: 'https://x.example.com',
  current: key(),
  next: key(),
  lifetimeSec: 60,
})

beforeAll(async () => {
  keycloak = cleanup.add(
    await startKeycloakEmulator({ serverVersion: '26.5.2', features: ['jwt-authorization-grant'] }),
    (k) => k.stop(),
  )
})
const provider = (grant: 'password' | 'jwt-bearer') =>
  createIdentityProvider(
    readIdentityProviderSettings({
      IDP_STYLE: 'realm',
      REALM_SERVER_URL: keycloak.url,
      REALM_NAME: 'pf',
      REALM_CLIENT_ID: 'pf-exchange',
      REALM_CLIENT_SECRET: 'pf-exchange-secret',
      REALM_ADMIN_USER: 'admin',
      REALM_ADMIN_PASSWORD: 'admin',
    }).settings,
    {
      signInGrant:
        grant === 'password' ? { type: 'password' } : { type: 'jwt-bearer', assertions, providerAlias: 'pf' },
    },
  )

describe('jwt-bearer: the version and feature gate at start', () => {
  it('refuses Keycloak 26.5.2, naming the fixed release and the CVEs', async () => {
    const refused = provider('jwt-bearer').checkAtStart()
    await expect(refused).rejects.toBeInstanceOf(IdpMisconfiguredError)
    await expect(refused).rejects.toThrow(/Keycloak 26\.5\.2 .* 26\.5\.3 or later .*CVE-2026-1609/)
  })

  it('leaves the password mode alone on the same server', async () => {
    await expect(provider('password').checkAtStart()).resolves.toEqual(expect.any(Array))
  })
})
