import { IdpMisconfiguredError, type IdpInvalidGrantError } from '../errors'
import type { KeycloakUser } from './realm-types'

/**
 * Why Keycloak answers "Account is not fully set up" for a user, as an error that says what to do: pending
 * required actions (an administrator's `CONFIGURE_TOTP`, `VERIFY_EMAIL`, …, which the exchange never clears),
 * or, with none pending, the Verify Profile action finding attributes the realm's user profile requires.
 */
export function diagnoseNotSetUp(
  user: KeycloakUser,
  realm: string,
  cause: IdpInvalidGrantError,
): IdpMisconfiguredError {
  const details = { statusCode: cause.statusCode, body: cause.body, headers: cause.headers }
  const pending = user.requiredActions ?? []
  if (pending.length > 0) {
    return new IdpMisconfiguredError(
      `account ${user.username} has pending required actions (${pending.join(', ')}) set in realm "${realm}"; ` +
        'the exchange does not clear them: an administrator must, or the user completes them in a browser login',
      details,
    )
  }
  const missing = (['email', 'firstName', 'lastName'] as const).filter((name) => !user[name])
  return new IdpMisconfiguredError(
    `realm "${realm}" refuses the login of ${user.username} (Verify Profile)` +
      (missing.length > 0
        ? `: its user profile requires ${missing.join(', ')}, which the account lacks`
        : '') +
      '; make these attributes optional in the user profile or let the marketplace JWT carry them',
    details,
  )
}
