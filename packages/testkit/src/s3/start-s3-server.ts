import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import S3rver from 's3rver'

export interface S3ServerHandle {
  /** `http://127.0.0.1:<port>`: use path-style addressing. */
  endpoint: string
  /** The fixed credentials s3rver accepts. */
  credentials: { accessKeyId: string; secretAccessKey: string }
  directory: string
  stop(): Promise<void>
}

export interface StartS3ServerOptions {
  /** Buckets to create at start. */
  buckets?: string[]
  /** Where objects are kept; default a fresh temporary folder. */
  directory?: string
  port?: number
}

/**
 * An S3-compatible server (s3rver) in this process, for tests and the local sandbox.
 *
 * @example
 * const s3 = await startS3Server({ buckets: ['pf-deliveries'] })
 * new S3Client({ endpoint: s3.endpoint, credentials: s3.credentials, region: 'us-east-1', forcePathStyle: true })
 */
export async function startS3Server({
  buckets = [],
  directory = mkdtempSync(join(tmpdir(), 'pf-s3-')),
  port = 0,
}: StartS3ServerOptions = {}): Promise<S3ServerHandle> {
  const server = new S3rver({
    address: '127.0.0.1',
    port,
    silent: true,
    directory,
    configureBuckets: buckets.map((name) => ({ name })),
  })
  const { port: bound } = await server.run()
  return {
    endpoint: `http://127.0.0.1:${bound}`,
    credentials: { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' },
    directory,
    stop: () => server.close(),
  }
}
