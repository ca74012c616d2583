import { createCleanup } from '@pf/testkit'
import { startKeycloakEmulator, type KeycloakEmulatorOptions } from '../src/emulators'

// Verify Profile (idp-facts.md, "Default user profile"): evaluated at every login, the password grant included;
// it refuses a user lacking what the realm's user profile requires of users, names or the realm's own attributes.
const cleanup = createCleanup(afterAll)
const CLIENT = { clientId: 'pf-exchange', secret: 'pf-exchange-secret' }

async function grantFor(options: KeycloakEmulatorOptions, attributes: Record<string, string[]>) {
  const keycloak = cleanup.add(await startKeycloakEmulator({ clients: [CLIENT], ...options }), (k) =>
    k.stop(),
  )
  keycloak.seedUser({
    username: 'jane',
    email: 'jane@example.com',
    firstName: 'Jane',
    lastName: 'Doe',
    password: 'pw-1',
    attributes,
  })
  const res = await fetch(`${keycloak.url}/realms/pf/protocol/openid-connect/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({
      grant_type: 'password',
      username: 'jane',
      password: 'pw-1',
      client_id: CLIENT.clientId,
      client_secret: CLIENT.secret,
    }),
  })
  return { status: res.status, body: (await res.json()) as { error_description?: string } }
}

describe('Keycloak emulator: Verify Profile and the user profile', () => {
  it('refuses the password grant of a user lacking an attribute the profile requires ("Account is not fully set up")', async () => {
    expect(await grantFor({ requiredAttributes: ['phoneNumber'] }, {})).toEqual({
      status: 400,
      body: { error: 'invalid_grant', error_description: 'Account is not fully set up' },
    })
  })

  it('signs in a user holding it, and anyone when Verify Profile is disabled', async () => {
    const held = await grantFor({ requiredAttributes: ['phoneNumber'] }, { phoneNumber: ['+1 555'] })
    expect(held.status).toBe(200)
    expect((await grantFor({ requiredAttributes: ['phoneNumber'], verifyProfile: false }, {})).status).toBe(
      200,
    )
  })

  it('shows the requirement in GET /admin/realms/{realm}/users/profile (required for the role user)', async () => {
    const keycloak = cleanup.add(await startKeycloakEmulator({ requiredAttributes: ['phoneNumber'] }), (k) =>
      k.stop(),
    )
    const admin = await fetch(`${keycloak.url}/realms/master/protocol/openid-connect/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        grant_type: 'password',
        client_id: 'admin-cli',
        username: 'admin',
        password: 'admin',
      }),
    }).then((r) => r.json() as Promise<{ access_token: string }>)
    const profile = (await fetch(`${keycloak.url}/admin/realms/pf/users/profile`, {
      headers: { authorization: `Bearer ${admin.access_token}` },
    }).then((r) => r.json())) as { attributes: { name: string; required?: { roles: string[] } }[] }
    expect(profile.attributes.find((a) => a.name === 'phoneNumber')).toMatchObject({
      required: { roles: ['user'] },
    })
    expect(profile).not.toHaveProperty('unmanagedAttributePolicy')
  })
})
