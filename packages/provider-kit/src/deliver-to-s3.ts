import { Readable } from 'node:stream'
import type { S3Client } from '@aws-sdk/client-s3'
import { Upload } from '@aws-sdk/lib-storage'
import { resolveS3Target, type DeliveryResult, type DeliverySpec } from '@pf/schemas'
import { jsonArrayChunks, type DeliveredRecords } from './json-array-chunks'

/**
 * Object delivery (`pf_s3_sync`): the records' JSON at `<s3KeyPrefix><queryId>.json` in the envelope's bucket
 * or the default one, as `application/json`, streamed as read through a multipart upload when large (parts
 * of 5 MiB, a few at a time: memory stays flat whatever the count). Each request has the client's time-out;
 * `signal` (`delivery.timeoutMs`) ends the records' read, which fails the body: lib-storage then aborts the
 * multipart upload (`AbortMultipartUpload`, unless `leavePartsOnError`) before `done()` rejects, so no part of
 * the object is left and the failed callback comes after the abort.
 */
export async function deliverToS3(
  s3: S3Client,
  delivery: DeliverySpec | null | undefined,
  queryId: string,
  defaultBucket: string,
  records: DeliveredRecords,
  signal?: AbortSignal,
): Promise<DeliveryResult> {
  const { bucket, key, reference } = resolveS3Target(delivery, queryId, defaultBucket)
  async function* read() {
    for await (const chunk of jsonArrayChunks(records)) {
      signal?.throwIfAborted()
      yield chunk
    }
  }
  const upload = new Upload({
    client: s3,
    params: { Bucket: bucket, Key: key, Body: Readable.from(read()), ContentType: 'application/json' },
  })
  await upload.done()
  return { mechanism: 'pf_s3_sync', reference, statusCode: null }
}
