/**
 * The realm's user profile as Keycloak 24-26 applies it (see the spec's idp-facts.md, "Default user profile").
 *
 * - `default`: the stock profile (`keycloak-default-user-profile.json`): `username` and `email` required;
 *   `firstName`/`lastName` required for the role `user`, so an admin may leave them out, and then the
 *   Verify Profile required action (on by default) refuses every login, the password grant included.
 * - `names-optional`: a realm that made the names optional (what `deploy/keycloak/pf-realm.json` ships).
 */
export type UserProfileMode = 'default' | 'names-optional'

/** A validation failure in Keycloak's admin answer shape (`ErrorResponse`: `field`, `errorMessage`, `params`). */
export interface ProfileError {
  field: string
  errorMessage: string
  params: string[]
}

// UsernameProhibitedCharactersValidator.PATTERN (Keycloak server-spi-private, userprofile/validator):
// ^[^<>&"'\s\v\h$%!#?§,;:*~/\\|^=\[\]{}()`\p{Cntrl}]+$
const PROHIBITED_IN_USERNAME = /[<>&"'\s\v$%!#?§,;:*~/\\|^=[\]{}()`\p{Cc}]/u

/** The errors an admin create or full update gets from the profile's validators, in Keycloak's order. */
export function validateAdminWrite(rep: { username?: unknown; email?: unknown }): ProfileError | undefined {
  const username = typeof rep.username === 'string' ? rep.username : ''
  if (!username)
    return { field: 'username', errorMessage: 'error-user-attribute-required', params: ['username'] }
  if (username.length < 3 || username.length > 255)
    return { field: 'username', errorMessage: 'error-invalid-length', params: ['username', '3', '255'] }
  if (PROHIBITED_IN_USERNAME.test(username))
    return { field: 'username', errorMessage: 'error-username-invalid-character', params: ['username'] }
  const email = typeof rep.email === 'string' ? rep.email : ''
  if (!email) return { field: 'email', errorMessage: 'error-user-attribute-required', params: ['email'] }
  if (!/^[^\s@]+@[^\s@]+$/.test(email) || email.length > 255)
    return { field: 'email', errorMessage: 'error-invalid-email', params: ['email'] }
  return undefined
}

/**
 * What Verify Profile finds missing at login (the user context: names required for the role `user`, and the
 * realm's own `requiredAttributes`, custom attributes it requires of users).
 */
export function missingAtLogin(
  mode: UserProfileMode,
  user: { email?: string; firstName?: string; lastName?: string; attributes?: Record<string, string[]> },
  requiredAttributes: string[] = [],
): string[] {
  const required = mode === 'default' ? (['email', 'firstName', 'lastName'] as const) : (['email'] as const)
  return [
    ...required.filter((name) => !user[name]),
    ...requiredAttributes.filter((name) => !user.attributes?.[name]?.length),
  ]
}

/**
 * UPConfig.UnmanagedAttributePolicy (Keycloak 24+; absent: off). Who may edit an attribute the profile does not
 * declare (DefaultAttributes.createUnmanagedAttributeMetadata): `ENABLED` everyone, the user too (Account
 * Console, registration); `ADMIN_EDIT` administrators only; `ADMIN_VIEW` nobody (administrators see it).
 */
export type UnmanagedAttributePolicy = 'ENABLED' | 'ADMIN_EDIT' | 'ADMIN_VIEW'

/** A custom attribute the realm's user profile declares (UPAttribute). */
export interface DeclaredAttribute {
  name: string
  /**
   * UPAttributePermissions: the roles (`admin`, `user`) that may view and edit it. Keycloak's default is empty
   * (DeclarativeUserProfileProvider: no edit role, nobody writes it, administrators included).
   */
  permissions: { view: string[]; edit: string[] }
  /** Required of users (role `user`): Verify Profile demands it at every login. */
  required?: boolean
}

/** Whether an admin write (`POST`/`PUT /users`, the USER_API context) keeps custom attribute `name`. */
export function adminWrites(
  name: string,
  policy: UnmanagedAttributePolicy | undefined,
  declared: DeclaredAttribute[],
): boolean {
  const own = declared.find((attribute) => attribute.name === name)
  if (own) return own.permissions.edit.includes('admin')
  return policy === 'ENABLED' || policy === 'ADMIN_EDIT'
}

const permissions = (edit: string[]) => ({ view: ['admin', 'user'], edit })
/**
 * The realm's user profile as `GET /admin/realms/{realm}/users/profile` answers it (UPConfig, Keycloak 24+;
 * the stock one is `keycloak-default-user-profile.json` in server-spi-private): `firstName`/`lastName` required
 * for the role `user` unless the realm made them optional; the declared custom attributes;
 * `unmanagedAttributePolicy` absent when off.
 */
export function userProfileConfig(
  mode: UserProfileMode,
  policy: UnmanagedAttributePolicy | undefined,
  declared: DeclaredAttribute[] = [],
): Record<string, unknown> {
  const nameRequired = mode === 'default' ? { required: { roles: ['user'] } } : {}
  return {
    attributes: [
      {
        name: 'username',
        displayName: '${username}',
        validations: { length: { min: 3, max: 255 }, 'username-prohibited-characters': {} },
        permissions: permissions(['admin', 'user']),
        multivalued: false,
      },
      {
        name: 'email',
        displayName: '${email}',
        validations: { email: {}, length: { max: 255 } },
        required: { roles: ['user'] },
        permissions: permissions(['admin', 'user']),
        multivalued: false,
      },
      ...['firstName', 'lastName'].map((name) => ({
        name,
        displayName: `\${${name}}`,
        validations: { length: { max: 255 }, 'person-name-prohibited-characters': {} },
        ...nameRequired,
        permissions: permissions(['admin', 'user']),
        multivalued: false,
      })),
      ...declared.map(({ name, permissions: granted, required }) => ({
        name,
        displayName: name,
        ...(required ? { required: { roles: ['user'] } } : {}),
        permissions: granted,
        multivalued: false,
      })),
    ],
    groups: [{ name: 'user-metadata', displayHeader: 'User metadata' }],
    ...(policy ? { unmanagedAttributePolicy: policy } : {}),
  }
}

/** What a custom attribute the profile requires of users is declared as (anyone may edit it). */
export const requiredOfUsers = (name: string): DeclaredAttribute => ({
  name,
  permissions: permissions(['admin', 'user']),
  required: true,
})
