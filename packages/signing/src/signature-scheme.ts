/**
 * The two signature formats of the spec. Both are lowercase hex HMAC-SHA256 of the exact body bytes:
 * - `callback`: `sha256=<hex>`, keyed by the envelope's `callbackToken`;
 * - `webhook`: `<hex>` with no prefix, keyed by the application's webhook secret.
 */
export type SignatureScheme = 'callback' | 'webhook'

/** What can be signed: raw bytes, or a string taken as its UTF-8 bytes. */
export type SignableBody = string | Uint8Array
