export { startRedis } from './start-redis'
export type { RedisHandle, StartRedisOptions } from './start-redis'
export { locateSharedDir } from './locate-shared-dir'
export { loadTestVectors } from './load-test-vectors'
export type { DerivedPasswordVector, SignatureVector, TestVectors } from './load-test-vectors'
export { freePort } from './lib/free-port'
export { startServiceProcess } from './start-service-process'
export type { ServiceProcess, StartServiceProcessOptions } from './start-service-process'
export { startS3Server } from './start-s3-server'
export type { S3ServerHandle, StartS3ServerOptions } from './start-s3-server'
export { startKeycloakEmulator } from './emulators/start-keycloak-emulator'
export type {
  EmulatedKeycloakUser,
  KeycloakEmulator,
  KeycloakEmulatorOptions,
} from './emulators/start-keycloak-emulator'
export { startAuth0Emulator } from './emulators/start-auth0-emulator'
export type { Auth0Emulator, Auth0EmulatorOptions, EmulatedAuth0User } from './emulators/start-auth0-emulator'
export type { EmulatorControls, Fault, RecordedCall } from './emulators/emulator-controls'
export { SigningKey } from './emulators/signing-key'
export { startMarketplaceIssuer } from './start-marketplace-issuer'
export type { MarketplaceClaims, MarketplaceIssuer } from './start-marketplace-issuer'
export { createWebhookEvent, newWebhookId, sampleEventData } from './platform/sample-events'
export type { SampleEventKind } from './platform/sample-events'
export {
  deliverWebhook,
  WEBHOOK_RESPONSE_BUDGET_MS,
  WEBHOOK_RETRY_SCHEDULE_MS,
} from './platform/deliver-webhook'
export type { DeliverWebhookOptions, DeliveryAttempt, DeliveryState } from './platform/deliver-webhook'
export { sendQuery } from './platform/send-query'
export type { QueryOutcome, SendQueryOptions } from './platform/send-query'
export { redisPing } from './lib/redis-ping'
