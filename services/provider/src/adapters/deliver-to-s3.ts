import { Readable } from 'node:stream'
import type { S3Client } from '@aws-sdk/client-s3'
import { Upload } from '@aws-sdk/lib-storage'
import { resolveS3Target, type DeliveryResult, type DeliverySpec } from '@pf/schemas'

/** The results as a JSON array, a chunk per record, so a large result never becomes one giant string. */
function* jsonArray(results: readonly unknown[]): Generator<string> {
  yield '['
  for (let i = 0; i < results.length; i += 1) yield (i === 0 ? '' : ',') + JSON.stringify(results[i])
  yield ']'
}

/**
 * Object delivery (`pf_s3_sync`): the results' JSON at `<s3KeyPrefix><queryId>.json` in the envelope's bucket
 * or the default one, as `application/json`, streamed through a multipart upload when large. The whole upload
 * is aborted after `timeoutMs` (each request also has the client's own time-out): a hung store fails the query.
 */
export async function deliverToS3(
  s3: S3Client,
  delivery: DeliverySpec | null | undefined,
  queryId: string,
  defaultBucket: string,
  results: readonly unknown[],
  { timeoutMs }: { timeoutMs: number },
): Promise<DeliveryResult> {
  const { bucket, key, reference } = resolveS3Target(delivery, queryId, defaultBucket)
  const upload = new Upload({
    client: s3,
    params: {
      Bucket: bucket,
      Key: key,
      Body: Readable.from(jsonArray(results)),
      ContentType: 'application/json',
    },
  })
  const timer = setTimeout(() => void upload.abort().catch(() => {}), timeoutMs)
  try {
    await upload.done()
  } finally {
    clearTimeout(timer)
  }
  return { mechanism: 'pf_s3_sync', reference, statusCode: null }
}
