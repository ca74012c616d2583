import { createEnvReader, readIdentityProviderSettings, type ConfigError } from '@pf/service-kit'

const read = (source: Record<string, string>) => {
  const env = createEnvReader(source)
  const idp = readIdentityProviderSettings(env)
  env.done()
  return idp
}
const problemsOf = (source: Record<string, string>) => {
  try {
    read(source)
    return []
  } catch (error) {
    return (error as ConfigError).problems
  }
}
const REALM = {
  IDP_STYLE: 'realm',
  REALM_SERVER_URL: 'https://id.example.com',
  REALM_NAME: 'pf',
  REALM_CLIENT_ID: 'pf-exchange',
  REALM_CLIENT_SECRET: 'x'.repeat(40),
  REALM_ADMIN_AUTH: 'client_credentials',
}

describe('readIdentityProviderSettings: the one reader of IDP_STYLE, REALM_* and TENANT_* (issue 27)', () => {
  it('reads the realm style with its defaults', () => {
    expect(read(REALM)).toEqual({
      style: 'realm',
      realm: {
        serverUrl: 'https://id.example.com',
        realm: 'pf',
        clientId: 'pf-exchange',
        clientSecret: 'x'.repeat(40),
        adminAuth: 'client_credentials',
        version: 'auto',
      },
    })
  })

  it('reads the tenant style with its defaults (connection, base URL, namespace)', () => {
    expect(
      read({
        IDP_STYLE: 'tenant',
        TENANT_DOMAIN: 'acme.eu.auth0.com',
        TENANT_CLIENT_ID: 'c',
        TENANT_CLIENT_SECRET: 's',
      }),
    ).toEqual({
      style: 'tenant',
      tenant: {
        domain: 'acme.eu.auth0.com',
        baseUrl: 'https://acme.eu.auth0.com',
        clientId: 'c',
        clientSecret: 's',
        connection: 'Username-Password-Authentication',
        audience: undefined,
        claimNamespace: 'https://pf.example.com/',
        forwardedFor: false,
      },
    })
  })

  it('names every missing or bad setting, and placeholder secrets in production', () => {
    expect(problemsOf({})).toContain('IDP_STYLE must be one of realm, tenant')
    expect(problemsOf({ IDP_STYLE: 'realm' })).toEqual(
      expect.arrayContaining(['REALM_NAME is required', 'REALM_CLIENT_SECRET is required']),
    )
    expect(problemsOf({ ...REALM, REALM_CLIENT_SECRET: 'change-me', NODE_ENV: 'production' })).toHaveLength(1)
  })
})
