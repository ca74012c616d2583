import { resolveS3Target, type DeliverySpec } from '@pf/schemas'

/** S3's limit on an object key, in UTF-8 bytes. */
export const MAX_S3_KEY_BYTES = 1024

const CONTROL = /\p{Cc}/u
const hasDotSegment = (path: string) => path.split('/').some((segment) => segment === '.' || segment === '..')

/**
 * Why a queryId cannot name an object (`<s3KeyPrefix><queryId>.json`), or undefined: the spec allows any string,
 * so only what a key cannot hold is refused: control characters, a leading `/`, `.`/`..` segments (the SDK
 * resolves them, and the object would land outside its prefix), and more than S3's 1024 bytes.
 */
export function queryIdProblem(queryId: string): string | undefined {
  if (CONTROL.test(queryId)) return 'queryId must not hold control characters'
  if (queryId.startsWith('/')) return 'queryId must not start with "/"'
  if (hasDotSegment(queryId)) return 'queryId must not hold "." or ".." path segments'
  if (Buffer.byteLength(`${queryId}.json`) > MAX_S3_KEY_BYTES)
    return `queryId is too long for an object key (${MAX_S3_KEY_BYTES} bytes with ".json")`
  return undefined
}

/**
 * Why object delivery cannot write where the envelope asks, or undefined: an `s3KeyPrefix` with control
 * characters, a leading `/` or `.`/`..` segments, a bucket outside `allowedBuckets` (when set), a key over
 * 1024 bytes.
 */
export function s3DeliveryProblem(
  delivery: DeliverySpec | null | undefined,
  queryId: string,
  { defaultBucket, allowedBuckets }: { defaultBucket: string; allowedBuckets?: readonly string[] },
): string | undefined {
  const prefix = delivery?.s3KeyPrefix ?? ''
  if (CONTROL.test(prefix)) return 'delivery.s3KeyPrefix must not hold control characters'
  if (prefix.startsWith('/')) return 'delivery.s3KeyPrefix must not start with "/"'
  if (hasDotSegment(prefix)) return 'delivery.s3KeyPrefix must not hold "." or ".." path segments'
  const { bucket, key } = resolveS3Target(delivery, queryId, defaultBucket)
  if (hasDotSegment(key)) return 'delivery.s3KeyPrefix and queryId make a "." or ".." path segment'
  if (allowedBuckets && !allowedBuckets.includes(bucket))
    return `delivery.s3Bucket "${bucket}" is not allowed`
  if (Buffer.byteLength(key) > MAX_S3_KEY_BYTES)
    return `delivery.s3KeyPrefix and queryId make a key over ${MAX_S3_KEY_BYTES} bytes`
  return undefined
}
