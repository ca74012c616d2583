export { ConfigError } from './config-error'
export { createEnvReader } from './env-reader'
export type { Env, EnvReader } from './env-reader'
export { createLogger, REDACTED_PATHS } from './create-logger'
export type { Logger, LoggerOptions } from './create-logger'
export { createLogDestination } from './create-log-destination'
export type { LogDestination, LogDestinationOptions } from './create-log-destination'
export { ServiceError } from './service-error'
export { createErrorHandler } from './create-error-handler'
export { errorRuleOf, toErrorAnswer } from './to-error-answer'
export type {
  ErrorAnswer,
  ErrorAnswerOptions,
  ErrorBodyInput,
  ErrorRule,
  ErrorTable,
} from './to-error-answer'
export { createServerErrorLog } from './create-server-error-log'
export { createLogThrottle } from './create-log-throttle'
export type { LogThrottleOptions, ThrottledLog } from './create-log-throttle'
export type { ErrorHandlerOptions } from './create-error-handler'
export { createMetricsRegistry } from './create-metrics'
export { createOpsRouter } from './create-ops-router'
export type { OpsRouterOptions } from './create-ops-router'
export { createReadinessCheck } from './create-readiness-check'
export type { ReadinessCheckOptions } from './create-readiness-check'
export { DEFAULT_OPS_SETTINGS, readOpsSettings } from './ops-settings'
export type { OpsSettings } from './ops-settings'
export { metricsRoute } from './metrics-route'
export { listenMetrics } from './listen-metrics'
export type { ListenMetricsOptions } from './listen-metrics'
export { listen } from './listen'
export type { ListenOptions, RunningServer } from './listen'
export { DEFAULT_SERVER_LIMITS, readServerLimits } from './server-limits'
export type { ServerLimits } from './server-limits'
export { onShutdownSignal, runMain } from './run-main'
export { serve } from './serve'
export type { RunnableService, ServedConfig, ServeOptions } from './serve'
export { DoctorProblem, runDoctor } from './run-doctor'
export type { DoctorCheck, DoctorOptions } from './run-doctor'
export { productionSecretsCheck } from './production-secrets-check'
export { runCommand } from './run-command'
export { buildOpenApiDocument, OPS_PATHS, openApiRoute } from './openapi'
export type { OpenApiInput, OpenApiOperation, OpenApiResponse } from './openapi'
export { withTimeout } from './with-timeout'
export { createSecretCheck } from './create-secret-check'
export { checkProductionSecrets, PLACEHOLDER_SECRETS } from './check-production-secrets'
export type { SecretRule } from './check-production-secrets'
export { readIdentityProviderSettings } from './identity-provider-settings'
export type {
  IdentityProviderSettings,
  IdpStyle,
  RealmSettings,
  TenantSettings,
} from './identity-provider-settings'
