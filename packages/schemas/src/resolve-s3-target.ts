import type { DeliverySpec } from './query-envelope'

export interface S3Target {
  bucket: string
  key: string
  /** `s3://<bucket>/<key>`, the delivery result's reference. */
  reference: string
}

/** `<s3KeyPrefix><queryId>.json`, with a null or absent prefix read as empty (spec, "Object delivery"). */
export function deliveryObjectKey(s3KeyPrefix: string | null | undefined, queryId: string): string {
  return `${s3KeyPrefix ?? ''}${queryId}.json`
}

/**
 * Where object delivery writes: the envelope's `s3Bucket` unless null or empty, then the configured default.
 *
 * @example
 * resolveS3Target({ s3Bucket: '', s3KeyPrefix: 'acme/' }, 'q-1', 'pf-deliveries')
 * // { bucket: 'pf-deliveries', key: 'acme/q-1.json', reference: 's3://pf-deliveries/acme/q-1.json' }
 */
export function resolveS3Target(
  delivery: DeliverySpec | null | undefined,
  queryId: string,
  defaultBucket: string,
): S3Target {
  const bucket = delivery?.s3Bucket ? delivery.s3Bucket : defaultBucket
  const key = deliveryObjectKey(delivery?.s3KeyPrefix, queryId)
  return { bucket, key, reference: `s3://${bucket}/${key}` }
}
