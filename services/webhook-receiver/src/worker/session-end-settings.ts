import { readIdentityProviderSettings, type IdentityProviderSettings } from '@pf/idp-clients'
import type { EnvReader } from '@pf/service-kit'

/** What the ready-made `session.ended` handler needs: the identity provider, as the exchange reaches it. */
export interface SessionEndSettings {
  idp: IdentityProviderSettings
  /** Limit of one call to the identity provider (`IDP_TIMEOUT_MS`, default 10 000). */
  timeoutMs: number
}

/**
 * `IDP_SESSION_END=on` (default `off`): the worker ends the identity-provider sessions of a user whose
 * marketplace session ended, and then reads the exchange's identity-provider settings (`IDP_STYLE`,
 * `REALM_*`/`TENANT_*`, through @pf/idp-clients' one reader); `off` reads none of them.
 */
export function readSessionEndSettings(env: EnvReader): SessionEndSettings | undefined {
  if (env.oneOf('IDP_SESSION_END', ['on', 'off'] as const, 'off') === 'off') return undefined
  return {
    idp: env.include(readIdentityProviderSettings),
    timeoutMs: env.int('IDP_TIMEOUT_MS', { default: 10_000, min: 100, max: 60_000 }),
  }
}
