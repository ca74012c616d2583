/** An object the suite's S3 endpoint holds: its content type and bytes. */
export interface StoredObject {
  contentType: string
  text: string
}

export interface SuiteS3 {
  /** The object at `bucket`/`key`, or undefined when there is none. */
  read(bucket: string, key: string): Promise<StoredObject | undefined>
  stop(): Promise<void>
}

/** The credentials s3rver accepts, which the provider must use against the suite's S3 endpoint. */
export const SUITE_S3_CREDENTIALS = { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' }

/**
 * The suite's own S3 endpoint: s3rver (the optional peer of `@pf/testkit/s3`) on `host`:`port`, holding
 * `buckets`; objects are read back with the AWS SDK, path-style.
 */
export async function startSuiteS3(host: string, port: number, buckets: string[]): Promise<SuiteS3> {
  // Loaded here: s3rver is an optional peer, and the SDK is heavy for the rules that need neither.
  const { startS3Server } = await import('../s3/start-s3-server')
  const server = await startS3Server({ host, port, buckets: [...new Set(buckets)] })
  const { GetObjectCommand, S3Client } = await import('@aws-sdk/client-s3')
  const client = new S3Client({
    endpoint: server.endpoint,
    region: 'us-east-1',
    credentials: SUITE_S3_CREDENTIALS,
    forcePathStyle: true,
    responseChecksumValidation: 'WHEN_REQUIRED',
  })
  return {
    async read(bucket, key) {
      try {
        const object = await client.send(new GetObjectCommand({ Bucket: bucket, Key: key }))
        return { contentType: object.ContentType ?? '', text: (await object.Body?.transformToString()) ?? '' }
      } catch (error) {
        if ((error as { name?: string }).name === 'NoSuchKey') return undefined
        throw error
      }
    },
    async stop() {
      client.destroy()
      await server.stop()
    },
  }
}
