// Spec and vendor identifiers ('pf-user', 'Username-Password-Authentication', paths) are written out here on
// purpose, not imported from @pf/idp-clients: the emulator is an independent check of the client, not its echo.
import { randomBytes } from 'node:crypto'
import type { AddressInfo } from 'node:net'
import express, { type Request, type Response } from 'express'
import { problem } from './auth0-problem'
import {
  createAuth0UserAccessRouter,
  credentialId,
  type Auth0Permission,
  type EmulatedAuth0Session,
  type EmulatedRefreshToken,
} from './auth0-user-access-router'
import { clientCredentials } from './client-auth'
import { installControls, type EmulatorControls, type Fault } from './emulator-controls'
import { parseUserQuery, type Term } from './lucene-subset'
import { SigningKey } from './signing-key'

export interface EmulatedAuth0User {
  user_id: string
  email: string
  email_verified: boolean
  password: string
  connection: string
  app_metadata: Record<string, unknown>
  roles: Set<string>
  created_at: string
  /** Blocked by an administrator: it cannot sign in. */
  blocked: boolean
  /** Accounts of other connections linked into this one (account linking), beyond its own identity. */
  linkedIdentities: { connection: string; provider: string; user_id: string; isSocial: boolean }[]
  /** Enrolled authentication methods beyond the password (`totp`, `phone`, `webauthn-roaming`, …). */
  authenticationMethods: { id: string; type: string; confirmed: boolean; created_at: string }[]
  /** Ids of the organizations it is a member of. */
  organizations: string[]
  /** Permissions given to the user directly, not through a role. */
  permissions: Auth0Permission[]
}

export type { Auth0Permission, EmulatedAuth0Session, EmulatedRefreshToken } from './auth0-user-access-router'

/** A connection of the tenant: a database connection (passwords) unless `database: false` (social, enterprise). */
export interface Auth0ConnectionSpec {
  name: string
  database?: boolean
}

/** What the user search sees of a user: a copy that becomes visible `searchLagMs` after each write. */
interface SearchVersion {
  visibleAt: number
  user: Pick<EmulatedAuth0User, 'user_id' | 'email' | 'connection' | 'app_metadata'>
}

export interface Auth0EmulatorOptions {
  domain?: string
  /** `scopes`: what its machine-to-machine grant on the Management API allows (default: all it could need). */
  clients?: { clientId: string; clientSecret: string; grantTypes?: string[]; scopes?: string[] }[]
  /** Names of database connections, or specs (`{ name, database: false }` for a social connection). */
  connections?: (string | Auth0ConnectionSpec)[]
  /** The tenant's default directory for the password grant; `null` reproduces the "not configured" error. */
  defaultConnection?: string | null
  roles?: { id: string; name: string; permissions?: Auth0Permission[] }[]
  /** The tenant's organizations. */
  organizations?: { id: string; name: string }[]
  /**
   * The Enterprise plan's `/users/{id}/sessions` and `/users/{id}/refresh-tokens` endpoints (default true);
   * false: a tenant without them, which revokes refresh tokens through `/device-credentials` only.
   */
  sessionEndpoints?: boolean
  /** The namespace the post-login Action writes custom claims under (must end with `/`). */
  namespace?: string
  /**
   * How long after a write the user search (`GET /users?q=`) sees it: the search index is eventually
   * consistent (Auth0's user-search best practices). `users-by-email` and `GET /users/{id}` are immediate.
   */
  searchLagMs?: number
  latencyMs?: number
  /** Default: a free port. */
  port?: number
}

export interface Auth0Emulator extends EmulatorControls {
  /** Where to send requests (plain HTTP on 127.0.0.1). */
  url: string
  domain: string
  /** Issuer of its tokens: `https://{domain}/`. */
  issuer: string
  namespace: string
  users: Map<string, EmulatedAuth0User>
  seedUser(user: Partial<EmulatedAuth0User> & { email: string; password: string }): EmulatedAuth0User
  /** A browser login of the user: a session of the tenant's session layer. Returns its id. */
  startSession(userId: string): string
  sessionsOf(userId: string): EmulatedAuth0Session[]
  refreshTokensOf(userId: string): EmulatedRefreshToken[]
  setSearchLag(ms: number): void
  /** Management tokens issued so far. */
  managementTokensIssued(): number
  /** The next `times` requests (matching `match`) get the Management API's 429 with its rate-limit headers. */
  rateLimit(times: number, match?: Fault['match']): void
  stop(): Promise<void>
}

/** The Management API scopes a client's grant holds unless `scopes` says otherwise. */
const ALL_SCOPES = [
  'read:users',
  'create:users',
  'update:users',
  'read:roles',
  'create:role_members',
  'read:organizations',
  'read:authentication_methods',
  'read:sessions',
  'delete:sessions',
  'read:refresh_tokens',
  'delete:refresh_tokens',
  'read:device_credentials',
  'delete:device_credentials',
]

const strongEnough = (password: string) =>
  password.length >= 8 &&
  /[a-z]/.test(password) &&
  /[A-Z]/.test(password) &&
  /\d/.test(password) &&
  /[^A-Za-z0-9]/.test(password)

/**
 * An HTTP emulator of an Auth0 tenant: the Authentication API's `/oauth/token` (client credentials for the
 * Management API, password grant) and `/oauth/revoke`, the JWKS, and the Management API v2 calls of the
 * identity exchange, with the real answers' shapes (see shared/spec/idp-facts.md). Access tokens asked for
 * with an audience are JWTs carrying namespaced claims, as the post-login Action writes them.
 *
 * @example
 * const auth0 = await startAuth0Emulator({ clients: [{ clientId: 'app', clientSecret: 's' }] })
 * createTenantClient({ domain: auth0.domain, baseUrl: auth0.url, clientId: 'app', clientSecret: 's' })
 */
export async function startAuth0Emulator({
  domain = 'pf-test.eu.auth0.com',
  clients = [{ clientId: 'pf-exchange', clientSecret: 'pf-exchange-secret' }],
  connections: connectionInput = ['Username-Password-Authentication'],
  defaultConnection,
  roles = [{ id: 'rol_pfUser0000001', name: 'pf-user' }],
  organizations = [],
  sessionEndpoints = true,
  namespace = 'https://pf.example.com/',
  searchLagMs = 1000,
  latencyMs = 0,
  port = 0,
}: Auth0EmulatorOptions = {}): Promise<Auth0Emulator> {
  const key = new SigningKey()
  const issuer = `https://${domain}/`
  const managementAudience = `https://${domain}/api/v2/`
  const users = new Map<string, EmulatedAuth0User>()
  const refreshTokens = new Map<string, EmulatedRefreshToken>()
  const sessions = new Map<string, EmulatedAuth0Session>()
  const searchVersions = new Map<string, SearchVersion[]>()
  const connections = connectionInput.map((c) => (typeof c === 'string' ? { name: c } : c))
  const connectionNames = connections.map((c) => c.name)
  const isDatabase = (name: string) => connections.find((c) => c.name === name)?.database !== false
  const defaultDirectory =
    defaultConnection === undefined ? (connections[0]?.name ?? null) : defaultConnection
  let lag = searchLagMs
  let managementTokens = 0

  /** Records what the search will see of the user once the lag has passed. */
  function indexForSearch(user: EmulatedAuth0User, delayMs = lag) {
    const versions = searchVersions.get(user.user_id) ?? []
    const now = Date.now()
    // Keep the newest version already visible, and the pending ones.
    const visible = versions.filter((v) => v.visibleAt <= now).at(-1)
    const pending = versions.filter((v) => v.visibleAt > now)
    const snapshot = { ...user, app_metadata: structuredClone(user.app_metadata) }
    searchVersions.set(user.user_id, [
      ...(visible ? [visible] : []),
      ...pending,
      { visibleAt: now + delayMs, user: snapshot },
    ])
  }
  const searchable = (userId: string) =>
    searchVersions
      .get(userId)
      ?.filter((v) => v.visibleAt <= Date.now())
      .at(-1)?.user

  const app = express()
  app.use(express.urlencoded({ extended: false }), express.json())
  const controls = installControls(app, { latencyMs })

  function addUser(
    input: Partial<EmulatedAuth0User> & { email: string; password: string },
    searchDelayMs: number,
  ): EmulatedAuth0User {
    const user: EmulatedAuth0User = {
      user_id: `auth0|${randomBytes(12).toString('hex')}`,
      email_verified: false,
      connection: connectionNames[0] ?? 'Username-Password-Authentication',
      app_metadata: {},
      roles: new Set(),
      created_at: new Date().toISOString(),
      blocked: false,
      linkedIdentities: [],
      authenticationMethods: [],
      organizations: [],
      permissions: [],
      ...input,
      email: input.email.toLowerCase(),
    }
    users.set(user.user_id, user)
    indexForSearch(user, searchDelayMs)
    return user
  }
  const view = (user: EmulatedAuth0User) => ({
    user_id: user.user_id,
    email: user.email,
    email_verified: user.email_verified,
    app_metadata: user.app_metadata,
    identities: [
      {
        connection: user.connection,
        provider: 'auth0',
        user_id: user.user_id.split('|')[1],
        isSocial: false,
      },
      ...user.linkedIdentities,
    ],
    ...(user.blocked ? { blocked: true } : {}),
    created_at: user.created_at,
    updated_at: new Date().toISOString(),
  })
  const roleNames = (user: EmulatedAuth0User) => roles.filter((r) => user.roles.has(r.id)).map((r) => r.name)

  /** The tokens of a signed-in user, as the password, password-realm and refresh-token grants answer. */
  function userTokens(
    user: EmulatedAuth0User,
    clientId: string,
    scopes: string[],
    audience?: string,
    refresh = true,
  ) {
    const customClaims = {
      [`${namespace}roles`]: roleNames(user),
      [`${namespace}orgId`]: user.app_metadata.orgId,
      [`${namespace}pfUserId`]: user.app_metadata.pfUserId,
      [`${namespace}pfApplicationId`]: user.app_metadata.pfApplicationId,
    }
    // Without an audience the tenant issues an opaque token for /userinfo: custom claims need a JWT.
    const accessToken = audience
      ? key.sign(
          {
            iss: issuer,
            sub: user.user_id,
            aud: [audience, `${issuer}userinfo`],
            azp: clientId,
            scope: scopes.join(' '),
            email: user.email,
            ...customClaims,
          },
          86400,
        )
      : randomBytes(24).toString('base64url')
    let refreshToken: string | undefined
    if (refresh && scopes.includes('offline_access')) {
      refreshToken = randomBytes(24).toString('base64url')
      refreshTokens.set(refreshToken, {
        id: credentialId('rt'),
        userId: user.user_id,
        clientId,
        scope: scopes.join(' '),
        ...(audience ? { audience } : {}),
        created_at: new Date().toISOString(),
      })
    }
    return {
      access_token: accessToken,
      ...(scopes.includes('openid')
        ? {
            id_token: key.sign(
              {
                iss: issuer,
                aud: clientId,
                sub: user.user_id,
                email: user.email,
                nickname: user.email.split('@')[0],
              },
              36000,
            ),
          }
        : {}),
      ...(refreshToken ? { refresh_token: refreshToken } : {}),
      scope: scopes.join(' '),
      expires_in: 86400,
      token_type: 'Bearer',
    }
  }

  const PASSWORD_REALM = 'http://auth0.com/oauth/grant-type/password-realm'
  app.post('/oauth/token', (req: Request, res: Response) => {
    const body = req.body as Record<string, string | undefined>
    const { clientId, clientSecret } = clientCredentials(req)
    const client = clients.find((c) => c.clientId === clientId)
    if (!client || client.clientSecret !== clientSecret)
      return void res.status(401).json({ error: 'access_denied', error_description: 'Unauthorized' })
    const allowed = client.grantTypes ?? [
      'authorization_code',
      'client_credentials',
      'password',
      'refresh_token',
    ]
    // password-realm is the password grant with a named connection: the same grant type setting allows it.
    const grant = body.grant_type === PASSWORD_REALM ? 'password' : (body.grant_type ?? '')
    if (!allowed.includes(grant)) {
      return void res.status(403).json({
        error: 'unauthorized_client',
        error_description: `Grant type '${body.grant_type}' not allowed for the client.`,
      })
    }
    if (body.grant_type === 'client_credentials') {
      if (body.audience !== managementAudience)
        return void res
          .status(403)
          .json({ error: 'access_denied', error_description: `Service not found: ${body.audience}` })
      managementTokens += 1
      const scope = (client.scopes ?? ALL_SCOPES).join(' ')
      const token = key.sign(
        {
          iss: issuer,
          sub: `${client.clientId}@clients`,
          aud: managementAudience,
          gty: 'client-credentials',
          azp: client.clientId,
          scope,
        },
        86400,
      )
      return void res.json({ access_token: token, expires_in: 86400, token_type: 'Bearer', scope })
    }
    if (body.grant_type === 'refresh_token') {
      const session = refreshTokens.get(body.refresh_token ?? '')
      const user = session && users.get(session.userId)
      if (!session || !user)
        return void res
          .status(403)
          .json({ error: 'invalid_grant', error_description: 'Unknown or invalid refresh token.' })
      return void res.json(
        userTokens(user, client.clientId, session.scope.split(' '), session.audience, false),
      )
    }
    if (body.grant_type !== 'password' && body.grant_type !== PASSWORD_REALM)
      return void res
        .status(403)
        .json({ error: 'unsupported_grant_type', error_description: 'Unsupported grant type' })
    // `password` signs in against the tenant's default directory; `password-realm` against `realm`.
    const connection = body.grant_type === PASSWORD_REALM ? body.realm : defaultDirectory
    if (!connection)
      return void res.status(500).json({
        error: 'server_error',
        error_description: 'Authorization server not configured with default connection.',
      })
    const user = [...users.values()].find(
      (u) => u.email === (body.username ?? '').toLowerCase() && u.connection === connection,
    )
    if (!user || !isDatabase(connection) || user.password !== body.password)
      return void res
        .status(403)
        .json({ error: 'invalid_grant', error_description: 'Wrong email or password.' })
    if (user.blocked)
      return void res.status(401).json({ error: 'unauthorized', error_description: 'user is blocked' })
    res.json(userTokens(user, client.clientId, (body.scope ?? '').split(' ').filter(Boolean), body.audience))
  })

  app.post('/oauth/revoke', (req: Request, res: Response) => {
    const { clientId, clientSecret } = clientCredentials(req)
    const client = clients.find((c) => c.clientId === clientId)
    if (!client || client.clientSecret !== clientSecret)
      return void res.status(401).json({ error: 'access_denied', error_description: 'Unauthorized' })
    refreshTokens.delete((req.body as { token?: string }).token ?? '')
    res.status(200).end()
  })

  app.get('/.well-known/jwks.json', (_req, res) => void res.json(key.jwks()))

  // Management API v2: a management token (audience https://{domain}/api/v2/) is required.
  app.use('/api/v2', (req, res, next) => {
    const token = /^Bearer\s+(.+)$/i.exec(req.get('authorization') ?? '')?.[1]
    const claims = token ? key.verify(token) : null
    if (!claims || claims.aud !== managementAudience)
      return problem(res, 401, 'Unauthorized', 'Invalid token', 'invalid_token')
    res.locals.scopes = new Set(String(claims.scope ?? '').split(' '))
    next()
  })
  app.use(
    '/api/v2',
    createAuth0UserAccessRouter({
      users,
      refreshTokens,
      sessions,
      roles,
      organizations: new Map(organizations.map((org) => [org.id, { ...org, display_name: org.name }])),
      isDatabase,
      sessionEndpoints: () => sessionEndpoints,
    }),
  )

  type Searchable = SearchVersion['user']
  const matches = (user: Searchable, { field, value }: Term) => {
    if (field === 'email') return user.email === value.toLowerCase()
    if (field === 'user_id') return user.user_id === value
    if (field === 'identities.connection') return user.connection === value
    if (field.startsWith('app_metadata.'))
      return String(user.app_metadata[field.slice('app_metadata.'.length)] ?? '\u0000') === value
    return false
  }
  const badQuery = (res: Response, message: string) =>
    problem(res, 400, 'Bad Request', `Query validation error: ${message}`, 'invalid_query_string')
  // Search engine v3 over the eventually consistent index; `page`/`per_page` (50 by default, 100 at most),
  // `include_totals`, and never beyond the first 1000 results.
  app.get('/api/v2/users', (req, res) => {
    const {
      q = '',
      search_engine: engine,
      include_totals: totals,
    } = req.query as Record<string, string | undefined>
    if (engine !== 'v3' && q.includes('app_metadata'))
      return badQuery(
        res,
        'app_metadata fields are not searchable with the legacy search engine; use search_engine=v3.',
      )
    const page = Number(req.query.page ?? 0)
    const perPage = Number(req.query.per_page ?? 50)
    if (!Number.isInteger(page) || page < 0 || !Number.isInteger(perPage) || perPage < 0 || perPage > 100)
      return badQuery(res, "'Invalid paging' on property page / per_page.")
    if ((page + 1) * perPage > 1000) return badQuery(res, 'You can only page through the first 1000 records.')
    const clauses = q ? parseUserQuery(q) : [[]]
    if (!clauses) return badQuery(res, `'Invalid query' on property q (${q}).`)
    const found = [...users.keys()]
      .map(searchable)
      .filter((user): user is Searchable => user !== undefined)
      .filter((user) => clauses.some((clause) => clause.every((term) => matches(user, term))))
      .slice(0, 1000)
    const onPage = found
      .slice(page * perPage, (page + 1) * perPage)
      .map((found) => users.get(found.user_id))
      .filter((user): user is EmulatedAuth0User => user !== undefined)
      .map(view)
    res.json(
      totals === 'true'
        ? { start: page * perPage, limit: perPage, length: onPage.length, users: onPage, total: found.length }
        : onPage,
    )
  })
  // Immediately consistent, every connection (the caller filters on identities[].connection).
  app.get('/api/v2/users-by-email', (req, res) => {
    const email = req.query.email
    if (typeof email !== 'string' || !email)
      return problem(
        res,
        400,
        'Bad Request',
        'Query validation error: Missing required property: email.',
        'invalid_query_string',
      )
    res.json([...users.values()].filter((u) => u.email === email.toLowerCase()).map(view))
  })
  app.post('/api/v2/users', (req, res) => {
    const body = req.body as Record<string, unknown>
    if (typeof body.connection !== 'string' || !connectionNames.includes(body.connection))
      return problem(res, 400, 'Bad Request', 'The connection does not exist.', 'inexistent_connection')
    if (!isDatabase(body.connection))
      return problem(
        res,
        400,
        'Bad Request',
        'Users can only be created in database or passwordless connections.',
        'operation_not_supported',
      )
    if (typeof body.email !== 'string')
      return problem(
        res,
        400,
        'Bad Request',
        'Payload validation error: Missing required property: email.',
        'invalid_body',
      )
    if (typeof body.password !== 'string' || !strongEnough(body.password))
      return problem(res, 400, 'Bad Request', 'PasswordStrengthError: Password is too weak')
    const email = body.email.toLowerCase()
    // An email is unique per connection, not per tenant.
    if ([...users.values()].some((u) => u.email === email && u.connection === body.connection))
      return problem(res, 409, 'Conflict', 'The user already exists.', 'auth0_idp_error')
    const user = addUser(
      {
        email,
        password: body.password,
        connection: body.connection,
        email_verified: body.email_verified === true,
        app_metadata: (body.app_metadata as Record<string, unknown>) ?? {},
      },
      lag,
    )
    res.status(201).json(view(user))
  })
  app.get('/api/v2/users/:id', (req, res) => {
    const user = users.get(req.params.id)
    if (!user) return problem(res, 404, 'Not Found', 'The user does not exist.', 'inexistent_user')
    res.json(view(user))
  })
  app.delete('/api/v2/users/:id', (req, res) => {
    users.delete(req.params.id)
    searchVersions.delete(req.params.id)
    res.status(204).end()
  })
  app.patch('/api/v2/users/:id', (req, res) => {
    const user = users.get(req.params.id)
    if (!user) return problem(res, 404, 'Not Found', 'The user does not exist.', 'inexistent_user')
    const body = req.body as Record<string, unknown>
    if (body.password !== undefined) {
      // A password lives in a database connection, and the update has to name it.
      if (typeof body.connection !== 'string')
        return problem(
          res,
          400,
          'Bad Request',
          'Payload validation error: connection is required when updating password.',
          'invalid_body',
        )
      if (body.connection !== user.connection || !isDatabase(user.connection))
        return problem(
          res,
          400,
          'Bad Request',
          'Cannot update password for non-database connections.',
          'operation_not_supported',
        )
      if (typeof body.password !== 'string' || !strongEnough(body.password))
        return problem(res, 400, 'Bad Request', 'PasswordStrengthError: Password is too weak')
      user.password = body.password
    }
    if (body.app_metadata && typeof body.app_metadata === 'object') {
      // First-level merge; null deletes a key.
      for (const [name, value] of Object.entries(body.app_metadata as Record<string, unknown>)) {
        if (value === null) delete user.app_metadata[name]
        else user.app_metadata[name] = value
      }
    }
    if (typeof body.email === 'string') user.email = body.email.toLowerCase()
    indexForSearch(user)
    res.json(view(user))
  })
  app.get('/api/v2/roles', (req, res) => {
    const filter = String(req.query.name_filter ?? '').toLowerCase()
    res.json(
      roles.filter((r) => r.name.toLowerCase().includes(filter)).map((r) => ({ ...r, description: r.name })),
    )
  })
  app.get('/api/v2/users/:id/roles', (req, res) => {
    const user = users.get(req.params.id)
    if (!user) return problem(res, 404, 'Not Found', 'The user does not exist.', 'inexistent_user')
    res.json(roles.filter((r) => user.roles.has(r.id)).map((r) => ({ ...r, description: r.name })))
  })
  app.post('/api/v2/users/:id/roles', (req, res) => {
    const user = users.get(req.params.id)
    if (!user) return problem(res, 404, 'Not Found', 'The user does not exist.', 'inexistent_user')
    const ids = (req.body as { roles?: unknown }).roles
    if (!Array.isArray(ids) || ids.some((id) => !roles.some((r) => r.id === id)))
      return problem(res, 404, 'Not Found', 'The role does not exist.', 'inexistent_role')
    for (const id of ids) user.roles.add(String(id))
    res.status(204).end()
  })

  const server = app.listen(port, '127.0.0.1')
  await new Promise((resolve) => server.once('listening', resolve))
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  return {
    ...controls,
    url,
    domain,
    issuer,
    namespace,
    users,
    // A seeded user existed before the test: the search sees it at once.
    seedUser: (input) => addUser(input, 0),
    startSession: (userId) => {
      const id = credentialId('ses')
      sessions.set(id, { id, user_id: userId, created_at: new Date().toISOString() })
      return id
    },
    sessionsOf: (userId) => [...sessions.values()].filter((s) => s.user_id === userId),
    refreshTokensOf: (userId) => [...refreshTokens.values()].filter((t) => t.userId === userId),
    setSearchLag: (ms) => void (lag = ms),
    managementTokensIssued: () => managementTokens,
    rateLimit: (times, match) =>
      controls.injectFault({
        times,
        match,
        status: 429,
        body: {
          statusCode: 429,
          error: 'Too Many Requests',
          message: 'Global limit has been reached',
          errorCode: 'too_many_requests',
        },
        headers: {
          'x-ratelimit-limit': '50',
          'x-ratelimit-remaining': '0',
          'x-ratelimit-reset': String(Math.ceil(Date.now() / 1000)),
        },
      }),
    stop: () =>
      new Promise<void>((resolve) => {
        controls.releaseHung()
        server.closeAllConnections()
        server.close(() => resolve())
      }),
  }
}
