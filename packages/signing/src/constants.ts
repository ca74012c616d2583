/** The header that carries both callback and webhook signatures (spec, "Authentication" 2 and 3). */
export const SIGNATURE_HEADER = 'X-PF-Signature'

/** Callback signatures are `sha256=<hex>`; webhook signatures are the bare hex. */
export const CALLBACK_SIGNATURE_PREFIX = 'sha256='

/** Default raw-body limit of the verifying middleware: 1 MiB. */
export const DEFAULT_BODY_LIMIT = 1024 * 1024
