import type { EmulatedKeycloakUser } from './keycloak-realm-state'

/** Keycloak's UserRepresentation of a user; `brief` (briefRepresentation) leaves out the attributes. */
export const userRepresentation = (user: EmulatedKeycloakUser, brief = false) => ({
  id: user.id,
  username: user.username,
  ...(user.firstName !== undefined ? { firstName: user.firstName } : {}),
  ...(user.lastName !== undefined ? { lastName: user.lastName } : {}),
  ...(user.email !== undefined ? { email: user.email } : {}),
  emailVerified: user.emailVerified,
  enabled: user.enabled,
  createdTimestamp: user.createdTimestamp,
  totp: false,
  ...(!brief && Object.keys(user.attributes).length > 0 ? { attributes: user.attributes } : {}),
  ...(user.federationLink ? { federationLink: user.federationLink } : {}),
  disableableCredentialTypes: [],
  requiredActions: user.requiredActions,
  notBefore: user.notBefore,
})
