import { parseAssertionKey, type IdpStyle, type PublishedAssertionKey } from '@pf/idp-clients'
import type { EnvReader } from '@pf/service-kit'

/** What the exchange signs its assertions with (`EXCHANGE_ASSERTION_*`, `EXCHANGE_SIGNING_KEY*`). */
export interface AssertionSettings {
  /** `iss` of every assertion: the exchange, as the identity provider's configuration names it. */
  issuer: string
  current: PublishedAssertionKey
  next: PublishedAssertionKey
  lifetimeSec: number
}

/**
 * `EXCHANGE_GRANT`: `password` (default, the spec's flow; keys, when set, are published ahead of a switch),
 * `jwt-bearer` (Keycloak's JWT Authorization Grant) or `token-exchange` (Auth0's Custom Token Exchange): keys
 * required.
 */
export type ExchangeGrantConfig =
  | { mode: 'password'; assertion?: AssertionSettings }
  | { mode: 'jwt-bearer'; assertion: AssertionSettings; providerAlias: string }
  | { mode: 'token-exchange'; assertion: AssertionSettings }

export const EXCHANGE_GRANTS = ['password', 'jwt-bearer', 'token-exchange'] as const

/** Keycloak's default maximum lifetime of an assertion (JWTAuthorizationGrantConfig: 300 s). */
const SERVER_MAX_LIFETIME_SEC = 300

/** One key setting, parsed; a problem names the setting and what is wrong, never the key. */
function key(env: EnvReader, name: string, needed: boolean): PublishedAssertionKey | undefined {
  const text = needed
    ? env.required(name, 'a private key, PEM or JWK, shared by every replica')
    : env.optional(name)
  if (!text) return undefined
  try {
    return parseAssertionKey(text)
  } catch (error) {
    env.problem(`${name} is ${(error as Error).message}`)
    return undefined
  }
}

/**
 * The grant settings, checked against the identity provider's style: `jwt-bearer` needs a realm (Keycloak 26.5.3+),
 * `token-exchange` (Auth0's Custom Token Exchange) a tenant. The keys are
 * read from settings, never generated (every replica must sign with, and publish, the same ones); the two must
 * differ. A bad or missing one is a problem, so the service does not start.
 */
export function readExchangeGrant(env: EnvReader, style: IdpStyle): ExchangeGrantConfig {
  const mode = env.oneOf('EXCHANGE_GRANT', EXCHANGE_GRANTS, 'password')
  if (mode === 'token-exchange' && style !== 'tenant')
    env.problem(
      'EXCHANGE_GRANT=token-exchange is Auth0 Custom Token Exchange (IDP_STYLE=tenant); a realm (Keycloak) uses EXCHANGE_GRANT=jwt-bearer',
    )
  if (mode === 'jwt-bearer' && style !== 'realm')
    env.problem(
      "EXCHANGE_GRANT=jwt-bearer is Keycloak's JWT Authorization Grant (IDP_STYLE=realm); a tenant (Auth0) cannot use it",
    )
  const needed = mode !== 'password'
  const current = key(env, 'EXCHANGE_SIGNING_KEY', needed)
  const next = key(env, 'EXCHANGE_SIGNING_KEY_NEXT', needed || current !== undefined)
  const issuer =
    needed || current ? env.url('EXCHANGE_ASSERTION_ISSUER') : env.optional('EXCHANGE_ASSERTION_ISSUER')
  const lifetimeSec = env.int('EXCHANGE_ASSERTION_LIFETIME_SECONDS', {
    default: 60,
    min: 10,
    max: SERVER_MAX_LIFETIME_SEC,
  })
  const providerAlias = env.string('EXCHANGE_JWT_GRANT_PROVIDER', 'pf-exchange')
  if (current && next && current.kid === next.kid)
    env.problem('EXCHANGE_SIGNING_KEY_NEXT must be another key than EXCHANGE_SIGNING_KEY (same kid)')
  const assertion = current && next && issuer ? { issuer, current, next, lifetimeSec } : undefined
  if (mode === 'password') return assertion ? { mode, assertion } : { mode }
  // With a problem recorded the service does not start: the placeholder is never used.
  if (mode === 'token-exchange') return { mode, assertion: assertion as AssertionSettings }
  return { mode, assertion: assertion as AssertionSettings, providerAlias }
}
