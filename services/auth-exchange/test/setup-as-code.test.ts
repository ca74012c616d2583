import { readFileSync } from 'node:fs'
import { join } from 'node:path'

const deploy = join(__dirname, '..', 'deploy')

describe('Keycloak realm import (spec, "Authentication" 5)', () => {
  const realm = JSON.parse(readFileSync(join(deploy, 'keycloak', 'pf-realm.json'), 'utf8'))
  const client = realm.clients.find((c: { clientId: string }) => c.clientId === 'pf-exchange')

  it('declares a confidential client with direct access grants and a service account', () => {
    expect(client).toMatchObject({
      publicClient: false,
      directAccessGrantsEnabled: true,
      serviceAccountsEnabled: true,
      webOrigins: ['+'],
    })
    expect(client.secret).toMatch(/^\$\{PF_EXCHANGE_CLIENT_SECRET:/)
  })

  it('maps pfUserId, orgId and pfApplicationId into access tokens', () => {
    for (const name of ['pfUserId', 'orgId', 'pfApplicationId']) {
      expect(client.protocolMappers).toContainEqual(
        expect.objectContaining({
          protocolMapper: 'oidc-usermodel-attribute-mapper',
          config: expect.objectContaining({
            'user.attribute': name,
            'claim.name': name,
            'access.token.claim': 'true',
          }),
        }),
      )
    }
  })

  it('has the realm roles pf-user and org-admin, and gives the service account what REALM_ADMIN_AUTH=client_credentials needs', () => {
    expect(realm.roles.realm.map((r: { name: string }) => r.name)).toEqual(['pf-user', 'org-admin'])
    expect(realm.users[0]).toMatchObject({
      serviceAccountClientId: 'pf-exchange',
      // view-realm and view-clients: role mappings hide the roles an admin may not view (adoption reads them).
      clientRoles: {
        'realm-management': ['manage-users', 'view-users', 'query-users', 'view-realm', 'view-clients'],
      },
    })
  })

  it('keeps the attributes: a user profile that declares them and lets admins edit unmanaged ones', () => {
    const [component] = realm.components['org.keycloak.userprofile.UserProfileProvider']
    const profile = JSON.parse(component.config['kc.user.profile.config'][0])
    expect(profile.unmanagedAttributePolicy).toBe('ADMIN_EDIT')
    expect(profile.attributes.map((a: { name: string }) => a.name)).toEqual(
      expect.arrayContaining(['pfUserId', 'orgId', 'pfApplicationId']),
    )
    expect(realm.keycloakVersion).toMatch(/^26\./)
  })
})

describe('Auth0 post-login Action', () => {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const { onExecutePostLogin } = require(join(deploy, 'auth0', 'post-login-action.js'))

  it('writes roles, orgId, pfUserId and pfApplicationId under the namespace', async () => {
    const claims: Record<string, unknown> = {}
    await onExecutePostLogin(
      {
        secrets: { CLAIM_NAMESPACE: 'https://pf.example.com/' },
        user: { app_metadata: { orgId: 'o1', pfUserId: 'u1', pfApplicationId: 'a1', plan: 'x' } },
        authorization: { roles: ['pf-user'] },
      },
      { accessToken: { setCustomClaim: (name: string, value: unknown) => void (claims[name] = value) } },
    )
    expect(claims).toEqual({
      'https://pf.example.com/roles': ['pf-user'],
      'https://pf.example.com/orgId': 'o1',
      'https://pf.example.com/pfUserId': 'u1',
      'https://pf.example.com/pfApplicationId': 'a1',
    })
  })

  it('refuses a namespace that Auth0 would silently drop', async () => {
    await expect(
      onExecutePostLogin(
        { secrets: { CLAIM_NAMESPACE: 'pf' }, user: {} },
        { accessToken: { setCustomClaim: () => {} } },
      ),
    ).rejects.toThrow(/URL ending/)
  })
})
