import { MARKETPLACE_ATTRIBUTES } from '../marketplace-attributes'
import { found, problem, type SetupFinding } from '../setup-check'

// What the realm's user profile (`GET /admin/realms/{realm}/users/profile`) says about the exchange's needs,
// one finding per set-up check (see `realmSetupChecks`).

/** The parts of Keycloak's `UPConfig` (`GET /users/profile`, 24+) the checks read. */
export interface UserProfileConfig {
  unmanagedAttributePolicy?: string
  attributes?: { name?: string; required?: { roles?: string[] }; permissions?: { edit?: string[] } }[]
}

/**
 * Who may edit each marketplace attribute: a declared one, the roles of its `permissions.edit` (none when
 * absent: DeclarativeUserProfileProvider grants nothing then, not even to administrators); an undeclared one,
 * the unmanaged-attribute policy (DefaultAttributes.createUnmanagedAttributeMetadata): `ENABLED` everyone,
 * users included (Account Console, registration), `ADMIN_EDIT` administrators only, `ADMIN_VIEW` and off
 * nobody (admin writes are dropped).
 */
function editorsOf(profile: UserProfileConfig): Map<string, string[]> {
  const policy = profile.unmanagedAttributePolicy
  const unmanaged = policy === 'ENABLED' ? ['admin', 'user'] : policy === 'ADMIN_EDIT' ? ['admin'] : []
  return new Map(
    MARKETPLACE_ATTRIBUTES.map((name) => {
      const declared = profile.attributes?.find((a) => a.name === name)
      return [name, declared ? (declared.permissions?.edit ?? []) : unmanaged]
    }),
  )
}

const ADMIN_EDIT_FIX =
  'set unmanagedAttributePolicy to ADMIN_EDIT (Realm settings → General → Unmanaged attributes: ' +
  '"Only administrators can write")'

export function keepsAttributes(profile: UserProfileConfig): SetupFinding {
  const policy = profile.unmanagedAttributePolicy
  const dropped = [...editorsOf(profile)].filter(([, editors]) => !editors.includes('admin'))
  if (dropped.length === 0)
    return found(
      policy ? `unmanagedAttributePolicy ${policy}` : `${MARKETPLACE_ATTRIBUTES.join(', ')} declared`,
    )
  return problem(
    `${dropped.map(([name]) => name).join(', ')} would be dropped: the user profile does not let administrators edit them and its unmanagedAttributePolicy is ${policy ?? 'off'}`,
    `${ADMIN_EDIT_FIX}, or declare them with admin in their edit permission`,
  )
}

/**
 * The exchange's 409 path and `session.ended` find an account by its `pfUserId`: a realm where users may edit
 * their own marketplace attributes lets anyone claim another user's account (and `orgId` or `pfApplicationId`
 * in tokens). Passes when only administrators may edit them.
 */
export function attributesAdminOnly(profile: UserProfileConfig): SetupFinding {
  const userEdited = [...editorsOf(profile)]
    .filter(([, editors]) => editors.includes('user'))
    .map(([name]) => name)
  if (userEdited.length === 0) return found(`only administrators edit ${MARKETPLACE_ATTRIBUTES.join(', ')}`)
  const declared = userEdited.filter((name) => profile.attributes?.some((a) => a.name === name))
  const unmanaged = userEdited.filter((name) => !declared.includes(name))
  const why = [
    ...(unmanaged.length > 0
      ? [
          `unmanagedAttributePolicy ${profile.unmanagedAttributePolicy} lets them edit ${unmanaged.join(', ')}`,
        ]
      : []),
    ...(declared.length > 0
      ? [`the user profile gives user the edit permission of ${declared.join(', ')}`]
      : []),
  ]
  const fixes = [
    ...(unmanaged.length > 0 ? [ADMIN_EDIT_FIX] : []),
    ...(declared.length > 0
      ? [`remove user from the edit permission of ${declared.join(', ')} (Realm settings → User profile)`]
      : []),
  ]
  return problem(
    `users can write their own marketplace attributes in the Account Console (${why.join('; ')}): anyone could claim another marketplace user's account`,
    fixes.join('; '),
  )
}

/** What the exchange writes on every account it creates or adopts (names: the JWT's, else the fallback). */
const WRITTEN = new Set<string>(['username', 'email', 'firstName', 'lastName', ...MARKETPLACE_ATTRIBUTES])

/** Attributes the user profile requires of users (role `user`): Verify Profile demands them at every login. */
const requiredAtLogin = (profile: UserProfileConfig) =>
  (profile.attributes ?? [])
    .filter((a) => a.name && a.required?.roles?.includes('user'))
    .map((a) => a.name as string)

export function verifyProfileFinding(profile: UserProfileConfig): SetupFinding {
  const required = requiredAtLogin(profile)
  const unwritten = required.filter((name) => !WRITTEN.has(name))
  if (unwritten.length > 0)
    return problem(
      `enabled, and the user profile requires ${unwritten.join(', ')} of every user, which the exchange never sets: its users get "Account is not fully set up" at every sign-in`,
      `make ${unwritten.join(', ')} optional in the user profile, or disable Verify Profile`,
    )
  const names = required.filter((name) => name === 'firstName' || name === 'lastName')
  return found(
    names.length > 0
      ? `enabled; the user profile requires ${names.join(', ')}, which the exchange sets (the JWT's names, else "Marketplace" / "User")`
      : 'enabled; the user profile requires nothing the exchange does not set',
  )
}
