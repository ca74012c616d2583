import { mkdtempSync } from 'node:fs'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import S3rver from 's3rver'
import { listening } from '../lib/listening'

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
  /** The address to listen on (default 127.0.0.1; 0.0.0.0 to be reached from a container). */
  host?: string
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
  host = '127.0.0.1',
}: StartS3ServerOptions = {}): Promise<S3ServerHandle> {
  const server = new S3rver({
    silent: true,
    directory,
    configureBuckets: buckets.map((name) => ({ name })),
  })
  // s3rver's own run() listens without an 'error' listener: a busy port would end this process with a stack
  // trace. Its steps, with the listen error returned instead (EADDRINUSE with its port, for the caller to name).
  await server.configureBuckets()
  const httpServer = await listening(server.listen(port, host, () => {}))
  server.httpServer = httpServer
  const { port: bound } = httpServer.address() as AddressInfo
  return {
    endpoint: `http://${host === '0.0.0.0' ? '127.0.0.1' : host}:${bound}`,
    credentials: { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' },
    directory,
    stop: () => server.close(),
  }
}
