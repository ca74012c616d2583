export { CALLBACK_SIGNATURE_PREFIX, DEFAULT_BODY_LIMIT, SIGNATURE_HEADER } from './constants'
export type { SignableBody, SignatureScheme } from './signature-scheme'
export { sign } from './sign'
export { signCallback } from './sign-callback'
export { signWebhook } from './sign-webhook'
export { verifyCallback } from './verify-callback'
export type { VerifyOptions } from './verify-callback'
export { verifyWebhook } from './verify-webhook'
export { findMatchingSecret } from './find-matching-secret'
export type { FindMatchingSecretOptions } from './find-matching-secret'
export { readRawBody } from './read-raw-body'
export type { ReadRawBodyOptions } from './read-raw-body'
export { verifyRequest } from './verify-request'
export type { VerifyRequestInput, VerifyRequestResult } from './verify-request'
export { parseJsonBody } from './parse-json-body'
export { createVerifyMiddleware } from './create-verify-middleware'
export type { VerifiedRequest, VerifyMiddlewareOptions } from './create-verify-middleware'
export {
  BodyAlreadyConsumedError,
  BodyReadError,
  InvalidJsonError,
  PayloadTooLargeError,
  SignatureMismatchError,
  SigningError,
} from './errors'
export type { SigningErrorCode } from './errors'
