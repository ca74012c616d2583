import type { SigningErrorCode } from '@pf/signing'
import type { ReceiverErrorCode } from './errors'

/** Why a webhook was refused: the `reason` label of `pf_webhooks_rejected_total`. */
export type RejectReason =
  | 'signature'
  | 'too_large'
  | 'invalid_json'
  | 'invalid_envelope'
  | 'store_unavailable'
  | 'body_read'
  | 'other'

/**
 * The receiver's one table from error code (its own and @pf/signing's) to its answer (spec, B) and to the reason
 * its refusal is counted under; a code not in it is a 500 counted as `other`.
 */
export const RECEIVER_ERRORS: Readonly<
  Record<ReceiverErrorCode | SigningErrorCode, { status: number; reason: RejectReason }>
> = {
  ERR_SIGNATURE_MISMATCH: { status: 401, reason: 'signature' },
  ERR_PAYLOAD_TOO_LARGE: { status: 413, reason: 'too_large' },
  ERR_INVALID_JSON: { status: 400, reason: 'invalid_json' },
  ERR_BODY_READ: { status: 400, reason: 'body_read' },
  // A body parser ran before verification: a wiring bug of ours, never the sender's fault.
  ERR_BODY_ALREADY_CONSUMED: { status: 500, reason: 'other' },
  ERR_INVALID_ENVELOPE: { status: 400, reason: 'invalid_envelope' },
  ERR_STORE_UNAVAILABLE: { status: 503, reason: 'store_unavailable' },
}
