export { defineEndpoint, endpointPath } from './define-endpoint'
export type {
  EndpointDefinition,
  JsonSchema,
  SearchAnswer,
  SearchContext,
  SearchOutcome,
} from './define-endpoint'
export { createProvider } from './create-provider'
export type { Provider, ProviderOptions } from './create-provider'
export { serveProvider } from './serve-provider'
export type { ServedProvider, ServeProviderOptions } from './serve-provider'
export { providerChecks } from './provider-checks'
export type { ProviderCheck, ProviderCheckOptions } from './provider-checks'
export { buildProviderOpenApi } from './openapi-document'
export type { DocumentedEndpoint, OpenApiOptions } from './openapi-document'
export type { QueryParameterDoc, RouteDoc, RouteResponseDoc } from './route-doc'
export { checkQuery, MAX_S3_KEY_BYTES } from './check-query'
export type { CheckedQuery, QueryCheck, QueryRefusal, QueryRules } from './check-query'
export { createS3Client } from './create-s3-client'
export { createOutboundClient } from './create-outbound-client'
export type { OutboundClient, OutboundClientOptions } from './create-outbound-client'
export { postSignedJson } from './post-signed-json'
export type { SignedPostOptions } from './post-signed-json'
export type { S3ClientOptions } from './create-s3-client'
export { DEFAULT_DELIVERY_TIMEOUT_MS } from './run-query'
export {
  ApiKeyError,
  InvalidEnvelopeError,
  InvalidParametersError,
  OutboundUrlError,
  ProviderError,
  SearchError,
} from './errors'
export type { ProviderErrorCode } from './errors'
export { boundedText, MAX_LOGGED_CHARS } from './bounded-text'
export { checkOutboundUrl } from './check-outbound-url'
export { createLogger } from '@pf/service-kit'
export type { Logger, LoggerOptions } from '@pf/service-kit'
