import { S3Client } from '@aws-sdk/client-s3'

export interface S3ClientOptions {
  endpoint?: string
  region: string
  credentials?: { accessKeyId: string; secretAccessKey: string }
}

/**
 * An S3 client for any S3-compatible store: path-style addressing (`http://host/bucket/key`), and checksums
 * only where S3 requires them. Recent SDKs otherwise stream uploads as `aws-chunked` with checksum trailers,
 * which several S3-compatible servers do not understand. Without `credentials` the SDK's own chain is used.
 */
export function createS3Client({ endpoint, region, credentials }: S3ClientOptions): S3Client {
  return new S3Client({
    endpoint,
    region,
    credentials,
    forcePathStyle: true,
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
  })
}
