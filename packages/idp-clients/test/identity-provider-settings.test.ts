import { createEnvReader, type ConfigError } from '@pf/service-kit'
import { IDENTITY_PROVIDER_SETTINGS, readIdentityProviderSettings } from '@pf/idp-clients'

// As a service reads them: its environment reader includes the library's reader (problems joined, secrets
// checked in production).
const read = (source: Record<string, string>) => {
  const env = createEnvReader(source)
  const idp = env.include(readIdentityProviderSettings)
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

describe('readIdentityProviderSettings(env): a published library reader of an environment object (issue 39)', () => {
  it('reads only IDP_STYLE and its style’s settings from the object it is given, and returns its problems', () => {
    const names = new Set<string>()
    const env = new Proxy({ IDP_STYLE: 'realm', REALM_NAME: 'pf' } as Record<string, string>, {
      get: (target, name) => (names.add(String(name)), target[name as string]),
    })
    const { settings, problems } = readIdentityProviderSettings(env)
    expect([...names].every((name) => /^(IDP_STYLE|REALM_[A-Z_]+)$/.test(name))).toBe(true)
    expect(settings).toMatchObject({ style: 'realm', realm: { realm: 'pf', version: 'auto' } })
    expect(problems).toEqual(
      expect.arrayContaining(['REALM_SERVER_URL is required', 'REALM_CLIENT_SECRET is required']),
    )
  })

  it('names what it reads for a doctor: IDP_STYLE and each style’s prefix', () => {
    expect(IDENTITY_PROVIDER_SETTINGS).toEqual(['IDP_STYLE', 'REALM_*', 'TENANT_*'])
  })

  it('names the settings that hold secrets, with the least length production should accept', () => {
    const secrets = (source: Record<string, string>) =>
      readIdentityProviderSettings(source).secrets.map(({ name, minBytes }) => [name, minBytes])
    expect(
      secrets({ ...REALM, REALM_ADMIN_AUTH: 'password', REALM_ADMIN_USER: 'a', REALM_ADMIN_PASSWORD: 'p' }),
    ).toEqual([
      ['REALM_CLIENT_SECRET', 32],
      ['REALM_ADMIN_PASSWORD', 12],
    ])
    expect(secrets(REALM)).toEqual([['REALM_CLIENT_SECRET', 32]])
    expect(secrets({ IDP_STYLE: 'tenant', TENANT_DOMAIN: 'a.auth0.com', TENANT_CLIENT_SECRET: 's' })).toEqual(
      [['TENANT_CLIENT_SECRET', 32]],
    )
  })

  it('shows no credential of a server address that is not a URL', () => {
    const { problems } = readIdentityProviderSettings({
      ...REALM,
      REALM_SERVER_URL: 'http//admin:secret@id.example.com',
    })
    expect(problems).toEqual(['REALM_SERVER_URL must be a URL (got "***@id.example.com")'])
  })
})
