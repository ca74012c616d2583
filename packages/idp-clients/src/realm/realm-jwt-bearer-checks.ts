import { IdpMisconfiguredError, IdpRejectedError } from '../errors'
import type { IdpHttp } from '../lib/http-client'
import { found, problem, type SetupCheck, type SetupFinding } from '../setup-check'
import { FORM, form } from './form'
import { JWT_BEARER_GRANT_TYPE } from './create-realm-jwt-bearer'
import type { RealmAdminCall } from './realm-admin-api'

/**
 * The first release whose JWT Authorization Grant refuses disabled users and disabled providers: earlier 26.5
 * releases issue tokens to them (CVE-2026-1609, CVE-2026-1486, fixed in 26.5.3).
 */
export const JWT_BEARER_MIN_VERSION = [26, 5, 3] as const
const MIN_TEXT = JWT_BEARER_MIN_VERSION.join('.')
/** Profile.Feature.JWT_AUTHORIZATION_GRANT as serverinfo's `features` name it (`--features=jwt-authorization-grant`). */
const FEATURE = 'JWT_AUTHORIZATION_GRANT'

const atLeastMin = (version: string) => {
  const parts = version.split(/[.-]/).map((p) => Number.parseInt(p, 10) || 0)
  for (let i = 0; i < 3; i += 1)
    if ((parts[i] ?? 0) !== JWT_BEARER_MIN_VERSION[i]) return (parts[i] ?? 0) > JWT_BEARER_MIN_VERSION[i]!
  return true
}

interface ServerInfo {
  systemInfo?: { version?: string }
  features?: { name?: string; enabled?: boolean }[]
  profileInfo?: { disabledFeatures?: string[] }
}

/** `/admin/serverinfo`, or undefined where the admin identity may not read it (a service account: 403). */
async function serverInfo(call: RealmAdminCall): Promise<ServerInfo | undefined> {
  try {
    return (await call<ServerInfo>('server info', { method: 'GET', url: '/admin/serverinfo' })).data
  } catch (error) {
    if (error instanceof IdpRejectedError && error.statusCode === 403) return undefined
    throw error
  }
}

/** The feature as serverinfo tells it: `features` (26.x), else `profileInfo.disabledFeatures`. */
const featureOn = (info: ServerInfo) => {
  const listed = info.features?.find((f) => f.name === FEATURE)
  return listed
    ? listed.enabled === true
    : info.features === undefined && !info.profileInfo?.disabledFeatures?.includes(FEATURE)
}

/** What is wrong with the server for the grant, in words; undefined when it can serve it. */
function serverProblem(info: ServerInfo): { problem: string; fix: string } | undefined {
  const version = info.systemInfo?.version ?? ''
  if (!atLeastMin(version))
    return {
      problem: `Keycloak ${version || '(version not told)'} cannot serve EXCHANGE_GRANT=jwt-bearer: ${MIN_TEXT} or later is required (earlier 26.5 releases issue tokens to disabled users and accept disabled providers: CVE-2026-1609, CVE-2026-1486)`,
      fix: `upgrade Keycloak to ${MIN_TEXT} or later, or set EXCHANGE_GRANT=password`,
    }
  if (!featureOn(info))
    return {
      problem: 'the server feature jwt-authorization-grant (a preview) is off',
      fix: 'start Keycloak with --features=jwt-authorization-grant',
    }
  return undefined
}

/**
 * Without serverinfo: the token endpoint asked for the grant with an assertion that is no JWT. A server without
 * the feature has no grant of that type ("unsupported_grant_type"); one with it refuses the assertion
 * ("invalid_grant", "The provided assertion is not a valid JWT").
 */
async function probe(
  request: IdpHttp,
  realmPath: string,
  clientId: string,
  clientSecret: string,
): Promise<SetupFinding> {
  try {
    await request({
      what: 'jwt-bearer probe',
      method: 'POST',
      url: `${realmPath}/protocol/openid-connect/token`,
      headers: FORM,
      data: form({
        grant_type: JWT_BEARER_GRANT_TYPE,
        assertion: 'probe',
        client_id: clientId,
        client_secret: clientSecret,
      }),
    })
    return problem(
      'the probe assertion was accepted',
      'check the realm: a token was issued for an assertion that is no JWT',
    )
  } catch (error) {
    const body = (error as { body?: { error?: string } }).body
    if (body?.error === 'unsupported_grant_type')
      return problem(
        'the server does not offer the JWT Authorization Grant (feature jwt-authorization-grant off, or Keycloak older than 26.5)',
        `start Keycloak ${MIN_TEXT}+ with --features=jwt-authorization-grant`,
      )
    if (body?.error === 'invalid_grant')
      return found(
        `the grant answers (probed: this admin identity may not read /admin/serverinfo, so the version, ${MIN_TEXT} or later, is not checked)`,
      )
    throw error
  }
}

export interface RealmJwtBearerChecksOptions {
  request: IdpHttp
  call: RealmAdminCall
  realm: string
  clientId: string
  clientSecret: string
  providerAlias: string
  /** The exchange's `iss`, which the provider's `issuer` must equal. */
  issuer: string
  /** The assertions' lifetime, within the provider's maximum. */
  lifetimeSec: number
}

/**
 * At a service's start in `jwt-bearer` mode: rejects a server older than 26.5.3 or without the feature (every
 * exchange would fail, or tokens would reach disabled users); a serverinfo this admin identity may not read is
 * not a failure (`doctor` probes instead).
 */
export async function checkJwtBearerAtStart(call: RealmAdminCall): Promise<void> {
  const info = await serverInfo(call)
  const wrong = info && serverProblem(info)
  if (wrong) throw new IdpMisconfiguredError(`${wrong.problem} (fix: ${wrong.fix})`)
}

/**
 * The doctor's lines for `jwt-bearer`: the server (version 26.5.3+ and the feature, from serverinfo, or a probe of
 * the token endpoint where serverinfo is not readable), the provider (type "JWT Authorization Grant", enabled,
 * its issuer the exchange's, a JWKS URL, a maximum lifetime the assertions fit in), and the client (the grant on
 * with the provider allowed; Direct Access Grants off: with no password to protect, the password grant is only a
 * way around the exchange).
 */
export function realmJwtBearerChecks(options: RealmJwtBearerChecksOptions): SetupCheck[] {
  const { request, call, realm, clientId, clientSecret, providerAlias, issuer, lifetimeSec } = options
  const realmPath = `/realms/${encodeURIComponent(realm)}`
  const adminPath = `/admin${realmPath}`
  return [
    {
      name: 'realm JWT Authorization Grant (server)',
      run: async () => {
        const info = await serverInfo(call)
        if (!info) return probe(request, realmPath, clientId, clientSecret)
        const wrong = serverProblem(info)
        if (wrong) return problem(wrong.problem, wrong.fix)
        return found(`Keycloak ${info.systemInfo?.version}, feature jwt-authorization-grant on`)
      },
    },
    {
      name: `realm identity provider ${providerAlias}`,
      run: async () => {
        let idp: { providerId?: string; enabled?: boolean; config?: Record<string, string> }
        try {
          const url = `${adminPath}/identity-provider/instances/${encodeURIComponent(providerAlias)}`
          idp = (await call<typeof idp>('identity provider', { method: 'GET', url })).data
        } catch (error) {
          if (!(error instanceof IdpRejectedError && error.statusCode === 404)) throw error
          return problem(
            `realm "${realm}" has no identity provider ${providerAlias}`,
            `add an identity provider of type "JWT Authorization Grant" with alias ${providerAlias}, issuer ${issuer} and the exchange's /.well-known/jwks.json as its JWKS URL`,
          )
        }
        const config = idp.config ?? {}
        const max = Number.parseInt(config.jwtAuthorizationGrantMaxAllowedAssertionExpiration ?? '300', 10)
        if (idp.providerId !== 'jwt-authorization-grant')
          return problem(
            `it is of type ${idp.providerId}`,
            'use an identity provider of type "JWT Authorization Grant"',
          )
        if (idp.enabled === false) return problem('it is disabled', 'enable it')
        if (config.issuer !== issuer)
          return problem(
            `its issuer is ${config.issuer ?? '(none)'}, the exchange signs as ${issuer}`,
            'set its Issuer to EXCHANGE_ASSERTION_ISSUER',
          )
        if (!config.jwksUrl)
          return problem('it has no JWKS URL', "set its JWKS URL to the exchange's /.well-known/jwks.json")
        if (max < lifetimeSec)
          return problem(
            `it accepts assertions of ${max} s at most, the exchange's last ${lifetimeSec} s`,
            `lower EXCHANGE_ASSERTION_LIFETIME_SECONDS to ${max} or less`,
          )
        return found(`JWT Authorization Grant, enabled, issuer ${issuer}, keys at ${config.jwksUrl}`)
      },
    },
    {
      name: `realm client ${clientId}`,
      run: async () => {
        const { data } = await call<
          {
            publicClient?: boolean
            directAccessGrantsEnabled?: boolean
            attributes?: Record<string, string>
          }[]
        >('find client', { method: 'GET', url: `${adminPath}/clients`, params: { clientId } })
        const [client] = data
        if (!client)
          return problem(`realm "${realm}" has no client ${clientId}`, 'create it, or check REALM_CLIENT_ID')
        const attributes = client.attributes ?? {}
        if (client.publicClient !== false)
          return problem('the client is public', 'turn Client authentication on (a confidential client)')
        if (attributes['oauth2.jwt.authorization.grant.enabled'] !== 'true')
          return problem(
            'the JWT Authorization Grant is off for the client',
            'turn on the client\'s "JWT Authorization Grant" capability',
          )
        if (!(attributes['oauth2.jwt.authorization.grant.idp'] ?? '').split('##').includes(providerAlias))
          return problem(
            `identity provider ${providerAlias} is not among the client's allowed ones`,
            `add ${providerAlias} to the client's JWT Authorization Grant identity providers`,
          )
        if (client.directAccessGrantsEnabled !== false)
          return problem(
            'Direct Access Grants are on: anyone with the client secret may still try the password grant',
            'turn Direct access grants off for the client (EXCHANGE_GRANT=jwt-bearer needs no password)',
          )
        return found(`confidential, JWT Authorization Grant with ${providerAlias}, direct access grants off`)
      },
    },
  ]
}
