export { startKeycloakEmulator } from './start-keycloak-emulator'
export type {
  AssertionKeyFetch,
  EmulatedCredential,
  EmulatedGroup,
  EmulatedIdentityProvider,
  EmulatedKeycloakClient,
  EmulatedKeycloakUser,
  RoleRef,
  RoleSpec,
  KeycloakEmulator,
  KeycloakEmulatorOptions,
  DeclaredAttribute,
  UnmanagedAttributePolicy,
  UserProfileMode,
} from './start-keycloak-emulator'
export { startAuth0Emulator } from './start-auth0-emulator'
export type {
  Auth0ConnectionSpec,
  Auth0Emulator,
  Auth0EmulatorOptions,
  EmulatedAuth0Action,
  EmulatedAuth0Client,
  EmulatedAuth0User,
  EmulatedPostLoginAction,
  EmulatedTokenExchangeProfile,
  IpThrottleStage,
} from './start-auth0-emulator'
export type { EmulatorControls, Fault, RecordedCall } from './emulator-controls'
export { SigningKey } from './signing-key'
