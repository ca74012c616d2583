import express, { type Router } from 'express'
import type { KeycloakRealmState } from './keycloak-realm-state'
import { userProfileConfig, type UserProfileMode } from './keycloak-user-profile'

export interface RealmSettings {
  userProfile: UserProfileMode
  /** Custom attributes the user profile requires of users (role `user`). */
  requiredAttributes: string[]
  /** Whether the Verify Profile required action is enabled (a new realm's default: yes). */
  verifyProfile: boolean
}

/**
 * Realm settings a set-up check reads (`/admin/realms/{realm}`), as Keycloak answers them:
 * - `GET /users/profile`: the user profile (UserProfileResource.getConfiguration, UPConfig JSON);
 * - `GET /authentication/required-actions/{alias}`: a RequiredActionProviderRepresentation
 *   (AuthenticationManagementResource.getRequiredAction: `{alias, name, providerId, enabled, defaultAction,
 *   priority, config}`), 404 for an unknown alias. Only VERIFY_PROFILE is emulated.
 * Mounted before the users router: `/users/profile` is not a user id.
 */
export function createKeycloakRealmSettingsRouter(
  state: KeycloakRealmState,
  settings: RealmSettings,
): Router {
  const router = express.Router({ mergeParams: true })
  router.get('/users/profile', (_req, res) => {
    res.json(
      userProfileConfig(settings.userProfile, state.unmanagedAttributePolicy(), state.declaredAttributes),
    )
  })
  router.get('/authentication/required-actions/:alias', (req, res) => {
    if (req.params.alias !== 'VERIFY_PROFILE')
      return void res.status(404).json({ error: 'Failed to find required action' })
    res.json({
      alias: 'VERIFY_PROFILE',
      name: 'Verify Profile',
      providerId: 'VERIFY_PROFILE',
      enabled: settings.verifyProfile,
      defaultAction: false,
      priority: 90,
      config: {},
    })
  })
  return router
}
