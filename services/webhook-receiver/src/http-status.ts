import type { SigningErrorCode } from '@pf/signing'
import type { ReceiverErrorCode } from './errors'

/** The receiver's one table from error code (its own and @pf/signing's) to HTTP status (spec, B). */
export const RECEIVER_HTTP_STATUS: Readonly<Record<ReceiverErrorCode | SigningErrorCode, number>> = {
  ERR_SIGNATURE_MISMATCH: 401,
  ERR_PAYLOAD_TOO_LARGE: 413,
  ERR_INVALID_JSON: 400,
  ERR_BODY_READ: 400,
  // A body parser ran before verification: a wiring bug of ours, never the sender's fault.
  ERR_BODY_ALREADY_CONSUMED: 500,
  ERR_INVALID_ENVELOPE: 400,
  ERR_STORE_UNAVAILABLE: 503,
}
