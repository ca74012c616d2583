import { S3Client } from '@aws-sdk/client-s3'

export interface S3ClientOptions {
  endpoint?: string
  region: string
  credentials?: { accessKeyId: string; secretAccessKey: string }
  /** Limit of connecting and of each request (`outbound.timeoutMs`): a hung store fails the query instead. */
  timeoutMs?: number
}

/**
 * An S3 client for any S3-compatible store: path-style addressing (`http://host/bucket/key`), checksums only
 * where S3 requires them (recent SDKs otherwise stream uploads as `aws-chunked` with checksum trailers, which
 * several S3-compatible servers do not understand), connection and request time-outs, and the SDK's own
 * retries capped at 2 attempts so they fit the time-out. Without `credentials` the SDK's own chain is used.
 */
export function createS3Client({
  endpoint,
  region,
  credentials,
  timeoutMs = 10_000,
}: S3ClientOptions): S3Client {
  return new S3Client({
    endpoint,
    region,
    credentials,
    forcePathStyle: true,
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
    maxAttempts: 2,
    requestHandler: { connectionTimeout: timeoutMs, requestTimeout: timeoutMs, throwOnRequestTimeout: true },
  })
}
